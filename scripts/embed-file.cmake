# Writes OUT_C: the bytes of IN as `const unsigned char td_embed_NAME[]` and
# its size, so a helper program (the GPU probe, the LD_AUDIT module) travels
# inside the one executable. Run by CMake at build time.
file(READ ${IN} hex HEX)
string(LENGTH "${hex}" hexlen)
math(EXPR len "${hexlen} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
set(c "/* Generated from ${NAME} by scripts/embed-file.cmake; do not edit. */\n#include <stddef.h>\n\n")
string(APPEND c "const unsigned char td_embed_${NAME}[] = {${bytes}0};\nconst size_t td_embed_${NAME}_size = ${len};\n")
file(WRITE ${OUT_C}.tmp "${c}")
file(COPY_FILE ${OUT_C}.tmp ${OUT_C} ONLY_IF_DIFFERENT)
