#!/usr/bin/env python3
"""Create a small random LoRA adapter, in GGUF form, for a given base GGUF model.

The adapters exist for tests of `SystemLanguageModel.Adapter`, which loads them
through llama.cpp's `llama_adapter_lora_init`. They carry no training: A and B
are seeded random matrices, so the adapter is useless as a model but changes
the logits measurably, and the same arguments always give the same file.

Usage:
  python3 scripts/make-test-lora.py --gguf-py DIR --base BASE.gguf --out OUT.gguf
      [--rank 4] [--alpha 8] [--scale-init 0.02] [--seed 1] [--dtype f32|f16]
      [--tensors attn_q,attn_v] [--layers all|N] [--mismatch shape|arch]
      [--name NAME] [--meta key=value ...]

  --gguf-py DIR   the `gguf-py` folder of the pinned llama.cpp source, e.g.
                  ~/.cache/swift-foundation-models/llama.cpp/b11434-*/src/gguf-py
                  (the `gguf` package there matches the llama.cpp the tests load).
  --layers        `all` (default) or N: adapt blocks 0..N-1 only.
  --mismatch      `shape`: lora_b's output dimension is one too large, so
                  llama.cpp refuses the file ("has incorrect shape");
                  `arch`: general.architecture names another architecture, so
                  llama.cpp refuses the file ("model arch and LoRA arch mismatch").
  --meta k=v      extra string metadata, readable via llama_adapter_meta_*;
                  repeatable. It may also override the string keys this script
                  writes (general.type, adapter.type, general.architecture,
                  general.name), e.g. to test other refusals; adapter.lora.alpha
                  is refused, see below.

On success it prints one line: the output path, the number of A/B tensor pairs,
the rank and alpha.

What llama.cpp expects (b11434: convert_lora_to_gguf.py writes it,
src/llama-adapter.cpp reads it):
  * KV `general.type` = "adapter" (string), else the load fails.
  * KV `general.architecture` = the base model's (string); it goes through
    llm_arch_from_string and must equal the model's arch, else it fails.
  * KV `adapter.type` = "lora" (string), else it fails.
  * KV `adapter.lora.alpha` (float32). Optional (absent means 0, i.e. the
    scale is used as is), but when present it MUST be float32: it is read with
    gguf_get_val_f32, which asserts on the type and aborts the process.
    The effective scale of each pair is `scale * alpha / rank`, where rank is
    lora_b's ne[0].
  * Tensors come in pairs named `<base tensor name>.lora_a` and
    `<base tensor name>.lora_b`, e.g. `blk.0.attn_q.weight.lora_a`: the loader
    strips the suffix and looks the rest up in the base model.
  * Shapes in GGUF (ne) order, for a base weight W with ne = [n_in, n_out]:
        lora_a: ne = [n_in, rank]    (numpy shape (rank, n_in))
        lora_b: ne = [rank, n_out]   (numpy shape (n_out, rank))
    i.e. W' = W + scale * alpha/rank * B @ A in PyTorch's (out, in) layout,
    the same layout as PEFT's lora_A.weight (r, in) and lora_B.weight (out, r).
    (token_embd is the exception, with A and B flipped; this script does not
    write it.)
  * F32 or F16 data (the loader copies the bytes; the graph multiplies them).
"""

import argparse
import os
import re
import sys
from pathlib import Path


def parse_args(argv):
    p = argparse.ArgumentParser(
        description="Create a seeded random LoRA adapter (GGUF) for a base GGUF model, for tests.")
    p.add_argument("--gguf-py", required=True, metavar="DIR",
                   help="the gguf-py folder of the pinned llama.cpp source")
    p.add_argument("--base", required=True, metavar="BASE.gguf", help="the base model")
    p.add_argument("--out", required=True, metavar="OUT.gguf", help="the adapter to write")
    p.add_argument("--rank", type=int, default=4, help="LoRA rank r (default 4)")
    p.add_argument("--alpha", type=float, default=8.0,
                   help="adapter.lora.alpha (default 8; effective scale = alpha/rank)")
    p.add_argument("--scale-init", type=float, default=0.02,
                   help="standard deviation of the random A and B entries (default 0.02)")
    p.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    p.add_argument("--dtype", choices=("f32", "f16"), default="f32",
                   help="tensor data type (default f32)")
    p.add_argument("--tensors", default="attn_q,attn_v",
                   help="comma-separated per-block tensor kinds (default attn_q,attn_v)")
    p.add_argument("--layers", default="all",
                   help="'all' (default) or N: only blocks 0..N-1")
    p.add_argument("--mismatch", choices=("shape", "arch"),
                   help="write an adapter llama.cpp must refuse")
    p.add_argument("--name", help="general.name (default: the output file's stem)")
    p.add_argument("--meta", action="append", default=[], metavar="KEY=VALUE",
                   help="extra string metadata; repeatable")
    args = p.parse_args(argv)

    if args.rank < 1:
        p.error("--rank must be at least 1")
    if args.layers != "all":
        try:
            n = int(args.layers)
        except ValueError:
            p.error("--layers must be 'all' or a positive integer")
        if n < 1:
            p.error("--layers must be 'all' or a positive integer")
    for item in args.meta:
        key, sep, _ = item.partition("=")
        if not sep or not key:
            p.error(f"--meta expects key=value, got {item!r}")
        if key == "adapter.lora.alpha":
            # A string here would make llama.cpp abort (gguf_get_val_f32 asserts
            # on the type) instead of failing cleanly; use --alpha.
            p.error("--meta cannot set adapter.lora.alpha; use --alpha")
    return args


def main(argv):
    args = parse_args(argv)

    # The gguf package must come from the pinned llama.cpp source, so that the
    # file format and key names match the library the tests load.
    gguf_py = Path(args.gguf_py).expanduser()
    if not (gguf_py / "gguf" / "__init__.py").is_file():
        sys.exit(f"make-test-lora: no gguf package under {gguf_py}")
    sys.path.insert(0, str(gguf_py))
    import numpy as np
    import gguf

    # --- read the base model: its architecture and the chosen tensors' shapes ---
    reader = gguf.GGUFReader(args.base)
    arch_field = reader.get_field(gguf.Keys.General.ARCHITECTURE)
    if arch_field is None:
        sys.exit(f"make-test-lora: {args.base} has no {gguf.Keys.General.ARCHITECTURE}")
    base_arch = arch_field.contents()

    # ReaderTensor.shape is in GGUF (ne) order: [n_in, n_out] for a 2-D weight.
    shapes = {t.name: [int(d) for d in t.shape] for t in reader.tensors}
    n_blocks = 1 + max((int(m.group(1)) for name in shapes
                        if (m := re.match(r"blk\.(\d+)\.", name))), default=-1)
    if n_blocks == 0:
        sys.exit(f"make-test-lora: {args.base} has no blk.N tensors")
    blocks = range(n_blocks if args.layers == "all" else min(int(args.layers), n_blocks))

    kinds = [k.strip().removesuffix(".weight") for k in args.tensors.split(",") if k.strip()]
    if not kinds:
        sys.exit("make-test-lora: --tensors is empty")
    if "token_embd" in kinds:
        sys.exit("make-test-lora: token_embd (flipped A/B layout) is not supported")

    targets = []  # (base tensor name, n_in, n_out)
    for b in blocks:
        for kind in kinds:
            name = f"blk.{b}.{kind}.weight"
            shape = shapes.get(name)
            if shape is None:
                sys.exit(f"make-test-lora: {args.base} has no tensor {name}")
            if len(shape) != 2:
                sys.exit(f"make-test-lora: {name} is not a 2-D weight (ne={shape})")
            targets.append((name, shape[0], shape[1]))

    # --- build the adapter ---
    out_arch = base_arch
    if args.mismatch == "arch":
        # Any architecture llama.cpp knows, other than the base's.
        out_arch = "gemma3" if base_arch != "gemma3" else "llama"

    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    # The writer stores general.architecture from its arch argument.
    writer = gguf.GGUFWriter(str(out), out_arch)
    writer.add_type(gguf.GGUFType.ADAPTER)                          # general.type = "adapter"
    writer.add_string(gguf.Keys.Adapter.TYPE, "lora")               # adapter.type = "lora"
    writer.add_float32(gguf.Keys.Adapter.LORA_ALPHA, args.alpha)    # adapter.lora.alpha (f32)
    writer.add_name(args.name if args.name else out.stem)           # general.name
    for item in args.meta:
        key, _, value = item.partition("=")
        writer.add_string(key, value)  # overrides an earlier key of the same name

    rng = np.random.default_rng(args.seed)
    dtype = np.float16 if args.dtype == "f16" else np.float32
    r = args.rank
    for i, (name, n_in, n_out) in enumerate(targets):
        # numpy shapes are the reverse of ne: A is (r, n_in) -> ne [n_in, r],
        # B is (n_out, r) -> ne [r, n_out]. Both are non-zero (unlike a freshly
        # initialised PEFT adapter, whose B is zero), so the adapter changes logits.
        b_out = n_out + 1 if (args.mismatch == "shape" and i == 0) else n_out
        a = (rng.standard_normal((r, n_in)) * args.scale_init).astype(dtype)
        b = (rng.standard_normal((b_out, r)) * args.scale_init).astype(dtype)
        # Same order as convert_lora_to_gguf.py: each pair's lora_a, then its lora_b.
        writer.add_tensor(name + ".lora_a", a)
        writer.add_tensor(name + ".lora_b", b)

    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()

    alpha = f"{args.alpha:g}"
    print(f"{out}: {len(targets)} tensor pairs, rank {r}, alpha {alpha}")


if __name__ == "__main__":
    main(sys.argv[1:])
