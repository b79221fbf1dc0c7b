# The program's version, for --version, every JSON envelope, the man pages
# and the packages: `git describe` of a release tag (vX.Y.Z, and the commits
# since: X.Y.Z-N-gHASH) when the source is a git checkout that has one, else
# the project version of CMakeLists.txt (a tarball, a clone without tags).
function(td_version out)
  set(v ${PROJECT_VERSION})
  find_package(Git QUIET)
  if(GIT_FOUND)
    execute_process(
      COMMAND ${GIT_EXECUTABLE} describe --tags --match "v[0-9]*" --dirty=-modified
      WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
      RESULT_VARIABLE rc OUTPUT_VARIABLE described ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(rc EQUAL 0 AND described MATCHES "^v([0-9].*)$")
      set(v ${CMAKE_MATCH_1})
    endif()
    # Configure again when HEAD moves (a commit, a checkout, a new tag).
    execute_process(
      COMMAND ${GIT_EXECUTABLE} rev-parse --symbolic-full-name HEAD
      WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
      OUTPUT_VARIABLE branch ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
    foreach(what HEAD ${branch} packed-refs refs/tags)
      execute_process(
        COMMAND ${GIT_EXECUTABLE} rev-parse --git-path ${what}
        WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
        RESULT_VARIABLE rc OUTPUT_VARIABLE p ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
      if(rc EQUAL 0)
        get_filename_component(p ${p} ABSOLUTE BASE_DIR ${PROJECT_SOURCE_DIR})
        if(EXISTS ${p})
          set_property(DIRECTORY ${PROJECT_SOURCE_DIR} APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${p})
        endif()
      endif()
    endforeach()
  endif()
  set(${out} ${v} PARENT_SCOPE)
endfunction()
