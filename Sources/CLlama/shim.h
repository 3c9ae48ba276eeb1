#ifndef CLLAMA_SHIM_H
#define CLLAMA_SHIM_H

// llama.cpp's headers come from pkg-config (`llama.pc`). When none was found,
// the build stops here with what to do instead of a bare "file not found".
#if __has_include(<llama.h>) && __has_include(<gguf.h>)
#include <llama.h>
#include <gguf.h>
#else
#error "swift-foundation-models: llama.cpp was not found (no llama.pc on pkg-config's path). Install the pinned release with `bash .build/checkouts/swift-foundation-models/scripts/setup.sh` (in this repository: `make setup`), or export PKG_CONFIG_PATH=<prefix>/lib/pkgconfig for your own build of llama.cpp b11434 or later. Only the server models needed? Depend on the package with `traits: []` (README, \"Use it in your package\")."
#endif

#endif
