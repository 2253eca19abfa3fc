# Writes the man pages and the shell completions from the built binary's own CLI definitions
# (cmake -DAMDAHL=path/to/amdahl -DMAN_DIR=... -DCOMPLETIONS_DIR=... -P generate_docs.cmake).
file(REMOVE_RECURSE ${MAN_DIR})
execute_process(COMMAND ${AMDAHL} manual --directory ${MAN_DIR} RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "amdahl manual --directory ${MAN_DIR} failed: ${result}")
endif()
# Installed gzipped, as Debian's policy (and lintian) wants man pages; the plain pages stay for man -l.
file(GLOB pages ${MAN_DIR}/*.1)
foreach(page ${pages})
  file(ARCHIVE_CREATE OUTPUT ${page}.gz PATHS ${page} FORMAT raw COMPRESSION GZip COMPRESSION_LEVEL 9)
endforeach()
file(MAKE_DIRECTORY ${COMPLETIONS_DIR})
foreach(shell_and_file "bash;amdahl" "zsh;_amdahl" "fish;amdahl.fish")
  list(GET shell_and_file 0 shell)
  list(GET shell_and_file 1 name)
  execute_process(COMMAND ${AMDAHL} completions ${shell} OUTPUT_FILE ${COMPLETIONS_DIR}/${name}
                  RESULT_VARIABLE result)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "amdahl completions ${shell} failed: ${result}")
  endif()
endforeach()
