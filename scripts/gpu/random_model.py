#!/usr/bin/env python3
"""Random-weight Qwen2-architecture GGUF files with a real tokenizer, for
measuring speed on a machine the real weights cannot reach (the GPU machine
takes at most 64 MiB along): the speed of a forward pass depends on the
shapes and the quantization, not on the values.

  random_model.py tokenizer SRC.gguf OUT.gguf
      OUT: SRC's tokenizer (every tokenizer.* key: vocabulary, merges, chat
      template) and nothing else, a few MiB.
  random_model.py model TOKENIZER.gguf SHAPE OUT.gguf
      OUT: a qwen2 model of SHAPE (0.5b, 1.5b, 7b, tiny) with that tokenizer:
      Q4_0 matrices (random 4-bit values, one small scale), F32 norms of
      ones and small random biases.

Needs numpy and llama.cpp's gguf-py (PYTHONPATH=<llama.cpp>/gguf-py).
"""
import os
import sys
import time

import numpy as np
import gguf

# hidden size, layers, attention heads, key/value heads, feed-forward size:
# Qwen2.5's published shapes.
SHAPES = {
    "tiny": (256, 2, 4, 2, 512),
    "0.5b": (896, 24, 14, 2, 4864),
    "1.5b": (1536, 28, 12, 2, 8960),
    "7b": (3584, 28, 28, 4, 18944),
}
Q4_0_BLOCK = 32          # values per block
Q4_0_BYTES = 2 + 16      # an fp16 scale, then 32 four-bit values


def copy_tokenizer(reader, writer):
    copied = 0
    for key, field in reader.fields.items():
        if not key.startswith("tokenizer."):
            continue
        kind = field.types[0]
        item = field.types[-1] if kind == gguf.GGUFValueType.ARRAY else None
        writer.add_key_value(key, field.contents(), kind, item)
        copied += 1
    return copied


def tokenizer(source, destination):
    reader = gguf.GGUFReader(source)
    writer = gguf.GGUFWriter(destination, reader.fields["general.architecture"].contents())
    copied = copy_tokenizer(reader, writer)
    writer.add_name("tokenizer only")
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_ti_data_to_file()
    writer.close()
    print(f"{destination}: {copied} tokenizer keys, {os.path.getsize(destination)} bytes")


def q4_0(rows, columns, random, scale=np.float16(0.002)):
    """A Q4_0 matrix of rows x columns as GGUF stores it: per row,
    columns / 32 blocks of 18 bytes."""
    blocks = rows * (columns // Q4_0_BLOCK)
    data = np.empty((blocks, Q4_0_BYTES), dtype=np.uint8)
    data[:, :2] = np.frombuffer(scale.tobytes(), dtype=np.uint8)
    data[:, 2:] = random.integers(0, 256, size=(blocks, 16), dtype=np.uint8)
    return data.reshape(rows, (columns // Q4_0_BLOCK) * Q4_0_BYTES)


def model(tokenizer_path, shape, destination):
    started = time.time()
    hidden, layers, heads, kv_heads, ffn = SHAPES[shape]
    reader = gguf.GGUFReader(tokenizer_path)
    vocabulary = len(reader.fields["tokenizer.ggml.tokens"].data)
    kv = kv_heads * (hidden // heads)
    writer = gguf.GGUFWriter(destination, "qwen2")
    copy_tokenizer(reader, writer)
    writer.add_name(f"random-qwen2-{shape}")
    writer.add_file_type(gguf.LlamaFileType.MOSTLY_Q4_0)
    writer.add_quantization_version(gguf.GGML_QUANT_VERSION)
    writer.add_block_count(layers)
    writer.add_context_length(32768)
    writer.add_embedding_length(hidden)
    writer.add_feed_forward_length(ffn)
    writer.add_head_count(heads)
    writer.add_head_count_kv(kv_heads)
    writer.add_rope_freq_base(1_000_000.0)
    writer.add_layer_norm_rms_eps(1e-6)

    # (name, kind, (rows, columns) or (length,)); matrices are Q4_0.
    tensors = [("token_embd.weight", "matrix", (vocabulary, hidden))]
    for layer in range(layers):
        block = f"blk.{layer}."
        tensors += [
            (block + "attn_norm.weight", "ones", (hidden,)),
            (block + "attn_q.weight", "matrix", (hidden, hidden)),
            (block + "attn_q.bias", "bias", (hidden,)),
            (block + "attn_k.weight", "matrix", (kv, hidden)),
            (block + "attn_k.bias", "bias", (kv,)),
            (block + "attn_v.weight", "matrix", (kv, hidden)),
            (block + "attn_v.bias", "bias", (kv,)),
            (block + "attn_output.weight", "matrix", (hidden, hidden)),
            (block + "ffn_norm.weight", "ones", (hidden,)),
            (block + "ffn_gate.weight", "matrix", (ffn, hidden)),
            (block + "ffn_up.weight", "matrix", (ffn, hidden)),
            (block + "ffn_down.weight", "matrix", (hidden, ffn)),
        ]
    tensors += [("output_norm.weight", "ones", (hidden,)), ("output.weight", "matrix", (vocabulary, hidden))]
    for name, kind, dims in tensors:
        if kind == "matrix":
            rows, columns = dims
            stored = (rows, (columns // Q4_0_BLOCK) * Q4_0_BYTES)
            writer.add_tensor_info(name, stored, np.dtype(np.uint8), stored[0] * stored[1],
                                   raw_dtype=gguf.GGMLQuantizationType.Q4_0)
        else:
            writer.add_tensor_info(name, dims, np.dtype(np.float32), dims[0] * 4)
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_ti_data_to_file()
    random = np.random.default_rng(0)
    for name, kind, dims in tensors:
        if kind == "matrix":
            writer.write_tensor_data(q4_0(*dims, random))
        elif kind == "ones":
            writer.write_tensor_data(np.ones(dims, dtype=np.float32))
        else:
            writer.write_tensor_data((random.standard_normal(dims) * 0.01).astype(np.float32))
    writer.close()
    print(f"{destination}: random qwen2 {shape} (hidden {hidden}, {layers} layers, vocabulary {vocabulary}), "
          f"{os.path.getsize(destination) / 2**30:.2f} GiB in {time.time() - started:.0f} s")


if __name__ == "__main__":
    arguments = sys.argv[1:]
    if len(arguments) == 3 and arguments[0] == "tokenizer":
        tokenizer(arguments[1], arguments[2])
    elif len(arguments) == 4 and arguments[0] == "model" and arguments[2] in SHAPES:
        model(arguments[1], arguments[2], arguments[3])
    else:
        sys.exit(__doc__)
