/* The files behind check's MASTER_ADDR lookup (probe/distributed/resolve.h):
 * resolv.conf(5), nsswitch.conf(5)'s hosts line with its action items, and
 * hosts(5). The lookup itself, with a DNS server, is resolve.test.sh. */
#include "testutil.h"

#include <string.h>

#include "probe/distributed/resolve.h"

static void reads_resolv_conf(void **state)
{
    static const char text[] = "# comment\n; also a comment\n"
                               "nameserver 10.0.0.2\nnameserver  ::1 \nnameserver 10.0.0.4\n"
                               "nameserver 10.0.0.5\n"
                               "search a.test b.test\ndomain c.test\n"
                               "options rotate ndots:4 timeout:0 attempts:9\n"
                               "options ndots:40\n";
    struct td_resolv_conf c;
    td_resolv_conf_parse(text, strlen(text), &c);
    assert_int_equal(c.n_ns, 3); /* MAXNS: the fourth is ignored */
    assert_string_equal(c.nameservers[1], "::1");
    /* The last search or domain line wins. */
    assert_int_equal(c.n_search, 1);
    assert_string_equal(c.search[0], "c.test");
    assert_int_equal(c.ndots, 15);    /* capped */
    assert_int_equal(c.timeout_s, 1); /* at least 1 */
    assert_int_equal(c.attempts, 5);  /* capped */
    td_resolv_conf_parse("", 0, &c);
    assert_int_equal(c.n_ns, 0);
    assert_int_equal(c.ndots, 1);
    assert_int_equal(c.timeout_s, 5);
    assert_int_equal(c.attempts, 2);
    assert_false(c.search_set);
    static const char search[] = "search a b c d e f g h\n";
    td_resolv_conf_parse(search, strlen(search), &c);
    assert_int_equal(c.n_search, TD_RESOLV_MAX_SEARCH);
}

static void reads_nsswitch_hosts(void **state)
{
    static const char text[] = "# hosts: nis\npasswd: files\n"
                               "hosts:  files mdns4_minimal [NOTFOUND=return] dns "
                               "[!UNAVAIL=return success=continue] myhostname # resolve\n"
                               "hosts: dns\n";
    struct td_nss_source s[TD_NSS_MAX_SOURCES];
    size_t n = td_nsswitch_hosts(text, strlen(text), s, TD_NSS_MAX_SOURCES);
    assert_int_equal(n, 4);
    assert_string_equal(s[0].name, "files");
    assert_int_equal(s[0].returns, 1u << TD_NSS_SUCCESS);
    assert_string_equal(s[1].name, "mdns4_minimal");
    assert_int_equal(s[1].returns, 1u << TD_NSS_SUCCESS | 1u << TD_NSS_NOTFOUND);
    /* !UNAVAIL=return: every status but UNAVAIL; then SUCCESS continues. */
    assert_string_equal(s[2].name, "dns");
    assert_int_equal(s[2].returns, 1u << TD_NSS_NOTFOUND | 1u << TD_NSS_TRYAGAIN);
    assert_string_equal(s[3].name, "myhostname");
    static const char none[] = "passwd: files\nhostsx: dns\n";
    assert_int_equal(td_nsswitch_hosts(none, strlen(none), s, TD_NSS_MAX_SOURCES), 0);
    static const char open_bracket[] = "hosts: files [NOTFOUND=return dns";
    assert_int_equal(td_nsswitch_hosts(open_bracket, strlen(open_bracket), s, 16), 1);
    assert_int_equal(s[0].returns, 1u << TD_NSS_SUCCESS | 1u << TD_NSS_NOTFOUND);
}

static void finds_hosts_entries(void **state)
{
    static const char text[] = "127.0.0.1 localhost\n"
                               "# 10.0.0.1 commented\n"
                               "10.0.0.5\tnode001.cluster node001 rank0 # rank0b\n"
                               "bogus rank9\n"
                               "fe80::1%eth0 linklocal\n"
                               "10.0.0.6 last"; /* no newline at the end */
    char addr[64];
    assert_int_equal(td_hosts_find(text, strlen(text), "RANK0", addr, sizeof addr), 3);
    assert_string_equal(addr, "10.0.0.5");
    assert_int_equal(td_hosts_find(text, strlen(text), "node001.cluster.", addr, sizeof addr), 3);
    assert_int_equal(td_hosts_find(text, strlen(text), "commented", addr, sizeof addr), 0);
    assert_int_equal(td_hosts_find(text, strlen(text), "rank0b", addr, sizeof addr), 0);
    assert_int_equal(td_hosts_find(text, strlen(text), "rank9", addr, sizeof addr), 0);
    assert_int_equal(td_hosts_find(text, strlen(text), "node00", addr, sizeof addr), 0);
    assert_int_equal(td_hosts_find(text, strlen(text), "linklocal", addr, sizeof addr), 5);
    assert_int_equal(td_hosts_find(text, strlen(text), "last", addr, sizeof addr), 6);
    assert_int_equal(td_hosts_find(text, strlen(text), "", addr, sizeof addr), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(reads_resolv_conf),
        cmocka_unit_test(reads_nsswitch_hosts),
        cmocka_unit_test(finds_hosts_entries),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
