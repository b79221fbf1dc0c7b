"""check's MASTER_ADDR lookup (src/probe/distributed/resolve*.c, src/format/net/dns.c)
without glibc's NSS. Each case is a fake root (hosts, nsswitch.conf,
resolv.conf, hostname) and a DNS server this script runs on 127.0.0.1 (UDP,
any free port; TD_TEST_DNS_PORT, honoured under a fake root only, points
the lookup there). The server answers by the name asked: an A record, a
CNAME then an A, NXDOMAIN, SERVFAIL, a truncated reply, a reply with
another ID, or nothing; it logs every question, so the order of the names
tried (search list, ndots) is checked, not guessed. Waits that must end
use a server that never answers and a tiny --dns-timeout: the outcome is
the same whenever the clock fires. Last, the oracle: `getent hosts NAME`
on this machine for the names of its real /etc/hosts."""
import os
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import threading

sys.path.insert(0, os.path.join(os.environ["TD_SRC"], "tests"))
from casekit import check, finish, td_json  # noqa: E402

BASE_ENV = {"PATH": "/usr/bin:/bin", "HOME": "/nonexistent"}


class Server:
    """A UDP DNS server: RULES maps a lower-case name to an action."""

    def __init__(self, rules):
        self.rules = rules
        self.log = []
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.bind(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        threading.Thread(target=self.serve, daemon=True).start()

    def serve(self):
        while True:
            data, peer = self.sock.recvfrom(512)
            reply = self.answer(data)
            if reply:
                self.sock.sendto(reply, peer)

    def sync(self):
        """check may exit on its A reply before its AAAA question is read:
        a question of ours, answered, means every datagram sent before it
        has been read and logged (one socket, served in order)."""
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.settimeout(60)  # a dead server thread fails the test, never hangs it
        s.sendto(struct.pack(">HHHHHH", 1, 0x100, 1, 0, 0, 0) + b"\x04sync\x04test\x00\x00\x01\x00\x01",
                 ("127.0.0.1", self.port))
        s.recv(512)
        s.close()

    def answer(self, q):
        qid, = struct.unpack(">H", q[:2])
        at, labels = 12, []
        while q[at]:
            labels.append(q[at + 1:at + 1 + q[at]].decode())
            at += 1 + q[at]
        qtype, = struct.unpack(">H", q[at + 1:at + 3])
        question = q[12:at + 5]
        name = ".".join(labels).lower()
        self.log.append((name, qtype))
        action = self.rules.get(name, "nx")

        def msg(flags, answers=b"", an=0, rid=qid):
            return struct.pack(">HHHHHH", rid, flags, 1, an, 0, 0) + question + answers

        def rr(rtype, rdata, owner=b"\xc0\x0c"):
            return owner + struct.pack(">HHIH", rtype, 1, 60, len(rdata)) + rdata

        def a_record(addr, rid=qid):
            if qtype != 1:
                return msg(0x8180, rid=rid)  # no AAAA: NOERROR, no answer
            return msg(0x8180, rr(1, socket.inet_aton(addr)), 1, rid)

        if action == "silent":
            return None
        if action == "nx":
            return msg(0x8183)
        if action == "servfail":
            return msg(0x8182)
        if action == "tc":
            return msg(0x8380)
        if action == "wrongid":
            return a_record("10.6.6.6", rid=qid ^ 0x5555)
        if action.startswith("cname:"):
            target = action[6:].encode()
            # "real" + a pointer to the question's second label: compression.
            first = q[12] + 1
            cname = bytes([len(target)]) + target + struct.pack(">H", 0xC000 | (12 + first))
            owner_of_a = struct.pack(">H", 0xC000 | (12 + len(question) + 12))
            if qtype != 1:
                return msg(0x8180, rr(5, cname), 1)
            return msg(0x8180, rr(5, cname) + rr(1, socket.inet_aton("10.8.0.8"), owner_of_a), 2)
        return a_record(action)


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


HOSTS = """# a comment line
127.0.0.1   localhost
10.0.0.5    node001.cluster.test   node001  rank0   # rank 0
10.0.0.9\tboth
2001:db8::7 sixer six
not-an-address ghosted
"""


def make_root(top, name, nsswitch="hosts: files dns\n", resolv="nameserver 127.0.0.1\n",
              hostname=None, hosts=HOSTS):
    root = os.path.join(top, name)
    os.makedirs(os.path.join(root, "sys/class/net/lo"))
    if hosts is not None:
        write(os.path.join(root, "etc/hosts"), hosts)
    if nsswitch is not None:
        write(os.path.join(root, "etc/nsswitch.conf"), nsswitch)
    if resolv is not None:
        write(os.path.join(root, "etc/resolv.conf"), resolv)
    if hostname:
        write(os.path.join(root, "etc/hostname"), hostname + "\n")
    return root


def lookup(srv, root, addr, budget=2000, **env):
    """check's verdict on MASTER_ADDR=ADDR: (resolves, lookup text,
    MASTER_ADDR findings, exit status, questions the server got)."""
    before = len(srv.log)
    e = dict(BASE_ENV, MASTER_ADDR=addr, TD_TEST_DNS_PORT=str(srv.port), **env)
    rc, doc = td_json("check", "--root", root, "--no-gpu", "--dns-timeout", str(budget), env=e,
                      schema=True)
    d = doc["distributed"]
    got = [f for f in doc["findings"] if f.get("symbol") == "MASTER_ADDR"]
    srv.sync()
    asked = [q for q in srv.log[before:] if q[0] != "sync.test"]
    return d["master_addr_resolves"], d["master_addr_lookup"] or "", got, rc, asked


def cases(top, srv):
    root = make_root(top, "files-dns", resolv="nameserver 127.0.0.1\nsearch cluster.test\n")
    # /etc/hosts: canonical name, alias, any case, IPv6, a line whose
    # address does not parse (skipped, as nss_files does).
    for name, line, addr in [("node001", 3, "10.0.0.5"), ("RANK0", 3, "10.0.0.5"),
                             ("node001.cluster.test.", 3, "10.0.0.5"), ("six", 5, "2001:db8::7")]:
        ok, how, got, rc, asked = lookup(srv, root, name)
        check(ok is True and how == f"/etc/hosts line {line}: {addr}" and not got and not asked,
              f"/etc/hosts {name}: {ok} {how!r} {got} {asked}")
    ok, how, got, rc, asked = lookup(srv, root, "ghosted")
    check(ok is False and asked, f"a line with no address is no entry: {ok} {how!r}")
    # A literal address is itself: no file, no question.
    for lit in ("10.1.2.3", "127.1", "::1", "fe80::1%eth0"):
        ok, how, got, rc, asked = lookup(srv, root, lit)
        check(ok is True and "literal" in how and not asked, f"literal {lit}: {ok} {how!r} {asked}")

    # DNS: the search domain first (no dot, ndots 1), A and AAAA asked.
    srv.rules.update({"gpu7.cluster.test": "10.7.0.7", "alias.cluster.test": "cname:real"})
    ok, how, got, rc, asked = lookup(srv, root, "gpu7")
    check(ok is True and f"DNS 127.0.0.1:{srv.port}: gpu7.cluster.test has A 10.7.0.7" in how
          and not got, f"DNS A: {ok} {how!r} {got}")
    check(asked == [("gpu7.cluster.test", 1), ("gpu7.cluster.test", 28)], f"asked {asked}")
    ok, how, got, rc, asked = lookup(srv, root, "alias")
    check(ok is True and "has A 10.8.0.8 through CNAME real.cluster.test" in how,
          f"CNAME with compression: {ok} {how!r}")

    # NXDOMAIN for every name tried: does not resolve, an error.
    ok, how, got, rc, asked = lookup(srv, root, "ghost")
    check(ok is False and rc == 1 and len(got) == 1 and got[0]["severity"] == "error"
          and "NXDOMAIN for ghost.cluster.test, ghost" in got[0]["detail"]
          and "does not resolve" in got[0]["detail"], f"NXDOMAIN: {ok} {rc} {got}")
    check([n for n, t in asked if t == 1] == ["ghost.cluster.test", "ghost"], f"order: {asked}")

    # The search list and ndots (resolv.conf(5)), LOCALDOMAIN and RES_OPTIONS.
    for resolv, env, name, order in [
            ("search a.test b.test\n", {}, "x.y", ["x.y", "x.y.a.test", "x.y.b.test"]),
            ("search a.test b.test\noptions ndots:2\n", {}, "x.y", ["x.y.a.test", "x.y.b.test", "x.y"]),
            ("search a.test b.test\n", {"RES_OPTIONS": "ndots:3"}, "x.y", ["x.y.a.test", "x.y.b.test", "x.y"]),
            ("domain c.test\n", {}, "solo", ["solo.c.test", "solo"]),
            ("search a.test\n", {"LOCALDOMAIN": "d.test e.test"}, "solo", ["solo.d.test", "solo.e.test", "solo"]),
            ("search a.test b.test\n", {}, "x.y.", ["x.y"])]:
        r = make_root(top, f"search{len(os.listdir(top))}", resolv="nameserver 127.0.0.1\n" + resolv)
        ok, how, got, rc, asked = lookup(srv, r, name, **env)
        tried = [n for n, t in asked if t == 1]
        check(ok is False and tried == order, f"{resolv!r} {env} {name}: tried {tried}, want {order}")

    # No answer, wrong ID, truncated, SERVFAIL: unknown, never "does not resolve".
    bare = make_root(top, "bare")
    srv.rules.update({"quiet": "silent", "liar": "wrongid", "big": "tc", "sick": "servfail"})
    for name, budget, says in [
            ("quiet", 40, f"no answer from 127.0.0.1:{srv.port} within 40 ms (the DNS budget)"),
            ("liar", 40, f"no answer from 127.0.0.1:{srv.port} within 40 ms (the DNS budget; replies that were not for our question ignored)"),
            ("big", 2000, "truncated (TC)"),
            ("sick", 2000, "SERVFAIL for sick")]:
        ok, how, got, rc, asked = lookup(srv, bare, name, budget=budget)
        check(ok is None and says in how and rc == 0 and len(got) == 1
              and got[0]["severity"] == "warning" and "unknown" in got[0]["detail"]
              and f"at most {budget} ms" in got[0]["detail"], f"{name}: {ok} {how!r} {got} rc {rc}")

    # Nothing listens: refused (the ICMP port unreachable), unknown.
    dead = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    dead.bind(("127.0.0.1", 0))
    port = dead.getsockname()[1]
    dead.close()
    e = dict(BASE_ENV, MASTER_ADDR="anyone", TD_TEST_DNS_PORT=str(port))
    rc, doc = td_json("check", "--root", bare, "--no-gpu", env=e)
    how = doc["distributed"]["master_addr_lookup"]
    check(doc["distributed"]["master_addr_resolves"] is None and "refused" in how, f"refused: {how!r}")


def nsswitch_cases(top, srv):
    srv.rules.update({"both": "10.9.9.9", "printer.local": "10.5.5.5"})
    for order, want in [("files dns", "/etc/hosts line 4: 10.0.0.9"),
                        ("dns files", f"DNS 127.0.0.1:{srv.port}: both has A 10.9.9.9")]:
        r = make_root(top, "ns-" + order.replace(" ", "-"), nsswitch=f"hosts: {order}\n")
        ok, how, got, rc, asked = lookup(srv, r, "both")
        check(ok is True and how.endswith(want), f"hosts: {order}: {how!r}")
    # A source we cannot ask: unknown, an info note naming it.
    r = make_root(top, "ns-sss", nsswitch="passwd: files\nhosts:   files sss dns # ldap\n")
    ok, how, got, rc, asked = lookup(srv, r, "ghost")
    check(ok is None and rc == 0 and len(got) == 1 and got[0]["severity"] == "info"
          and "sss, which torchdoctor cannot ask" in got[0]["detail"]
          and "nsswitch hosts: files sss dns" in got[0]["detail"], f"sss: {ok} {got}")
    # mdns4_minimal declines names outside .local; for .local its
    # [NOTFOUND=return] may end the lookup, so DNS's answer cannot count.
    r = make_root(top, "ns-mdns", nsswitch="hosts: files mdns4_minimal [NOTFOUND=return] dns myhostname\n")
    ok, how, got, rc, asked = lookup(srv, r, "ghost")
    check(ok is None and "myhostname" in how, f"mdns, then myhostname unreadable: {ok} {how!r}")
    r = make_root(top, "ns-mdns-host", nsswitch="hosts: files mdns4_minimal [NOTFOUND=return] dns myhostname\n",
                  hostname="gpu042")
    ok, how, got, rc, asked = lookup(srv, r, "ghost")
    check(ok is False and rc == 1 and asked, f"mdns4_minimal declines ghost: {ok} {how!r}")
    ok, how, got, rc, asked = lookup(srv, r, "printer.local")
    check(ok is None and not asked and "mdns4_minimal, which torchdoctor cannot ask" in how
          and "ends after mdns4_minimal" in how, f"printer.local: {ok} {how!r} {asked}")
    # myhostname: this machine's name (read under the root), *.localhost.
    for name, want in [("GPU042", True), ("foo.localhost", True), ("gpu043", False)]:
        ok, how, got, rc, asked = lookup(srv, r, name)
        check(ok is want, f"myhostname {name}: {ok} {how!r}")
    # [NOTFOUND=return] after files: DNS never asked.
    r = make_root(top, "ns-return", nsswitch="hosts: files [NOTFOUND=return] dns\n")
    ok, how, got, rc, asked = lookup(srv, r, "both.cluster")
    check(ok is False and not asked and "ends after files" in how, f"files [NOTFOUND=return]: {how!r} {asked}")
    # No nsswitch.conf: glibc's default "dns [!UNAVAIL=return] files", so
    # DNS's NXDOMAIN ends it before /etc/hosts is read.
    r = make_root(top, "ns-none", nsswitch=None)
    ok, how, got, rc, asked = lookup(srv, r, "node001")
    check(ok is False and asked and "ends after dns" in how, f"no nsswitch.conf: {ok} {how!r}")
    ok, how, got, rc, asked = lookup(srv, r, "both")
    check(ok is True and "DNS" in how, f"no nsswitch.conf, DNS first: {how!r}")


def oracle():
    """getent hosts NAME (glibc's NSS) against check on this machine, for
    the names of its real /etc/hosts when nsswitch.conf asks files first."""
    getent = shutil.which("getent")
    try:
        hosts = open("/etc/hosts").read()
        ns = [ln.split() for ln in open("/etc/nsswitch.conf") if ln.startswith("hosts:")]
    except OSError as e:
        print(f"oracle: skipped ({e})")
        return
    if not getent or not ns or ns[0][1:2] != ["files"]:
        print(f"oracle: skipped (getent {getent}, nsswitch hosts line {ns[:1]}: files not first)")
        return
    names = sorted({w for ln in hosts.splitlines() for w in ln.split("#")[0].split()[1:]})[:6]
    for name in names:
        want = subprocess.run([getent, "hosts", name], capture_output=True, timeout=30).returncode == 0
        rc, doc = td_json("check", "--no-gpu", "--root", "/",
                          env=dict(BASE_ENV, MASTER_ADDR=name))
        got = doc["distributed"]["master_addr_resolves"]
        check(got is want, f"oracle {name}: getent says {want}, check {got}: "
                           f"{doc['distributed']['master_addr_lookup']!r}")
    print(f"oracle: {len(names)} names of /etc/hosts against getent hosts: {names}")


srv = Server({})
with tempfile.TemporaryDirectory() as top:
    cases(top, srv)
    nsswitch_cases(top, srv)
oracle()
finish("resolve")
