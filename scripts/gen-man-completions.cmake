# Writes the man pages and shell completions with the program itself, from
# its option tables (src/cmd/args_man.c, src/cmd/args_complete.c):
#   cmake -DTD=path/to/torchdoctor -DOUT=build-dir -P gen-man-completions.cmake
# gives OUT/man/torchdoctor.1, OUT/man/torchdoctor-COMMAND.1 and
# OUT/completions/{bash/torchdoctor,zsh/_torchdoctor,fish/torchdoctor.fish}.
function(td_run out)
  execute_process(COMMAND ${TD} ${ARGN} OUTPUT_FILE ${out} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "torchdoctor ${ARGN} failed (${rc})")
  endif()
endfunction()

file(REMOVE_RECURSE ${OUT}/man ${OUT}/completions)
file(MAKE_DIRECTORY ${OUT}/man ${OUT}/completions/bash ${OUT}/completions/zsh
     ${OUT}/completions/fish)
execute_process(COMMAND ${TD} __man --list OUTPUT_VARIABLE pages RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "torchdoctor __man --list failed (${rc})")
endif()
string(REPLACE "\n" ";" pages "${pages}")
foreach(page IN LISTS pages)
  if(page STREQUAL "")
    continue()
  endif()
  string(REGEX REPLACE "^torchdoctor-?" "" command "${page}")
  td_run(${OUT}/man/${page}.1 __man ${command})
endforeach()
td_run(${OUT}/completions/bash/torchdoctor __completion bash)
td_run(${OUT}/completions/zsh/_torchdoctor __completion zsh)
td_run(${OUT}/completions/fish/torchdoctor.fish __completion fish)
