# Test registration. Every test is discovered, never listed by hand:
#   tests/<layer>/test_<module>[_more].c   a cmocka program linking td_<module>
#   tests/<layer>/<name>.test.sh           a shell test (bash), run from the source dir
# Fixtures are real binaries built once per test run by tests/fixtures/build.sh
# into ${FIXTURES}; every test gets TD_FIXTURES, TD_BIN and TD_SRC. The
# fixture scripts share nothing and run nproc at a time (TD_FIXTURE_JOBS).
# No fixture depends on the build (none reads TD_BIN, the compiler flags or
# TD_SANITIZE): with TD_FIXTURES_FROM, the folder another build of this tree
# filled (`make test` gives the ASan+UBSan build the plain build's), the
# fixtures test keeps that folder when it is complete and made from this
# tree (build.sh --reuse checks its .complete digest) and builds it there
# otherwise, and the tests read it. Without it a build makes its own.
find_library(TD_CMOCKA cmocka REQUIRED)
set(TD_FIXTURES_FROM "" CACHE PATH
  "fixtures folder of another build of this tree, used when complete (empty: build our own)")
if(TD_FIXTURES_FROM)
  get_filename_component(FIXTURES ${TD_FIXTURES_FROM} ABSOLUTE)
  set(td_fixtures_mode --reuse)
else()
  set(FIXTURES ${PROJECT_BINARY_DIR}/fixtures)
  set(td_fixtures_mode)
endif()
set(TD_TEST_ENV
  TD_FIXTURES=${FIXTURES}
  TD_BIN=$<TARGET_FILE:torchdoctor>
  TD_SRC=${PROJECT_SOURCE_DIR}
  TD_BUILD=${PROJECT_BINARY_DIR}
  TD_SANITIZE=$<IF:$<BOOL:${TD_SANITIZE}>,ON,OFF>)

# The TIMEOUTs below are guards against a hang, never a measure of speed: the
# fixtures' build (compilers only, nothing that waits) took over 15 minutes on
# the 2-core machine at nice 19 beside three fuzzers and other builds (issue
# 31), so its guard is an hour, inside CI's 90 minutes.
add_test(NAME fixtures
  COMMAND bash ${PROJECT_SOURCE_DIR}/tests/fixtures/build.sh ${td_fixtures_mode} ${FIXTURES})
set_tests_properties(fixtures PROPERTIES FIXTURES_SETUP fx TIMEOUT 3600)

file(GLOB_RECURSE td_c_tests CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/tests/*/test_*.c)
foreach(t IN LISTS td_c_tests)
  get_filename_component(tname ${t} NAME_WE)
  string(REGEX REPLACE "^test_([a-z0-9]+).*$" "\\1" mod ${tname})
  add_executable(${tname} ${t} ${PROJECT_SOURCE_DIR}/tests/testutil.c)
  target_include_directories(${tname} PRIVATE ${PROJECT_SOURCE_DIR}/tests)
  target_link_libraries(${tname} PRIVATE td_${mod} ${TD_CMOCKA})
  add_test(NAME ${tname} COMMAND ${tname})
  set_tests_properties(${tname} PROPERTIES ENVIRONMENT "${TD_TEST_ENV}"
    FIXTURES_REQUIRED fx TIMEOUT 600)
endforeach()

file(GLOB_RECURSE td_sh_tests CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/tests/*.test.sh)
foreach(t IN LISTS td_sh_tests)
  get_filename_component(tname ${t} NAME)
  string(REGEX REPLACE "\\.test\\.sh$" "" tname ${tname})
  add_test(NAME sh_${tname} COMMAND bash ${t})
  set_tests_properties(sh_${tname} PROPERTIES ENVIRONMENT "${TD_TEST_ENV}"
    FIXTURES_REQUIRED fx TIMEOUT 900 WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
endforeach()
# A test that needs a machine it cannot have (a real Slurm) exits 77 after
# saying why: ctest counts it as skipped, never as passed.
if(TEST sh_slurm)
  set_tests_properties(sh_slurm PROPERTIES SKIP_RETURN_CODE 77)
endif()
