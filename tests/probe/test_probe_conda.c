/* The conda-meta record reader (probe/install/conda_meta.h): the rows and fields
 * conda writes, what it leaves out, and the channel a fix names. */
#include "testutil.h"

#include <string.h>

#include "probe/install/conda_meta.h"

static int read_text(const char *text, struct td_conda_record *r, struct td_arena *a)
{
    struct td_err err = {0};
    return td_conda_record_read(text, strlen(text), r, a, &err);
}

static void reads_paths_data(void **state)
{
    struct td_arena a = {0};
    struct td_conda_record r;
    const char *doc =
        "{\"build\": \"h0_0\", \"name\": \"cudnn\", \"version\": \"9.1\", \"depends\": [\"x\"],"
        " \"paths_data\": {\"paths_version\": 1, \"paths\": ["
        "  {\"_path\": \"lib/libcudnn.so.9\", \"path_type\": \"hardlink\", \"sha256\": \"ab\","
        "   \"size_in_bytes\": 42},"
        "  {\"_path\": \"lib/libcudnn.so\", \"path_type\": \"softlink\"},"
        "  {\"_path\": \"etc/x\\u00e9.txt\", \"file_mode\": \"text\", \"prefix_placeholder\":"
        "   \"/opt/anaconda1anaconda2anaconda3\", \"sha256_in_prefix\": \"cd\", \"size_in_bytes\": "
        "-1},"
        "  {\"path_type\": \"hardlink\"}, 7,"
        "  {\"_path\": \"bin/tool\", \"file_mode\": \"binary\", \"size_in_bytes\": \"12\"}]}}";
    assert_int_equal(read_text(doc, &r, &a), 0);
    assert_string_equal(r.name, "cudnn");
    assert_string_equal(r.build, "h0_0");
    assert_int_equal(r.n_paths, 4); /* the row without a path and the 7 are left out */
    assert_string_equal(r.paths[0].path, "lib/libcudnn.so.9");
    assert_true(r.paths[0].has_size && r.paths[0].size == 42);
    assert_int_equal(r.paths[1].type, TD_CONDA_SOFTLINK);
    assert_string_equal(r.paths[2].path, "etc/x\xc3\xa9.txt");
    assert_string_equal(r.paths[2].sha256_in_prefix, "cd");
    assert_non_null(r.paths[2].placeholder);
    assert_false(r.paths[2].has_size); /* -1 is no size */
    assert_false(r.paths[2].binary_mode);
    assert_true(r.paths[3].binary_mode);
    assert_false(r.paths[3].has_size); /* a string is no size */
    td_arena_free(&a);
}

static void rejects_what_is_not_a_record(void **state)
{
    struct td_arena a = {0};
    struct td_conda_record r;
    assert_int_equal(read_text("[1]", &r, &a), -1);
    assert_int_equal(read_text("{\"version\": \"1\"}", &r, &a), -1);
    assert_int_equal(read_text("{\"name\": \"x\"", &r, &a), -1);
    assert_int_equal(read_text("{\"name\": \"x\"} {}", &r, &a), -1);
    assert_int_equal(read_text("{\"name\": \"x\", \"files\": []}", &r, &a), 0); /* old conda */
    assert_int_equal(r.n_paths, 0);
    td_arena_free(&a);
}

static const char *channel(const char *channel, const char *url, struct td_arena *a)
{
    struct td_conda_record r = {.name = "x", .channel = channel, .url = url};
    return td_conda_channel_name(&r, a);
}

static void names_the_channel(void **state)
{
    struct td_arena a = {0};
    assert_string_equal(
        channel("x", "https://conda.anaconda.org/pytorch/linux-64/pytorch-2.1.0-py_0.tar.bz2", &a),
        "pytorch");
    assert_string_equal(channel(NULL, "https://repo.anaconda.com/pkgs/main/win-64/x-1-0.conda", &a),
                        "pkgs/main");
    assert_string_equal(channel("https://conda.anaconda.org/conda-forge/linux-64", NULL, &a),
                        "conda-forge");
    assert_string_equal(channel("https://conda.anaconda.org/nvidia", NULL, &a), "nvidia");
    assert_string_equal(channel("https://mirror.example/conda/main/noarch/", NULL, &a),
                        "https://mirror.example/conda/main");
    assert_string_equal(channel("conda-forge", NULL, &a), "conda-forge");
    assert_null(channel(NULL, NULL, &a));
    td_arena_free(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(reads_paths_data),
        cmocka_unit_test(rejects_what_is_not_a_record),
        cmocka_unit_test(names_the_channel),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
