#ifndef CLLAMA_SHIM_H
#define CLLAMA_SHIM_H

#include <llama.h>
#include <gguf.h>

#endif
