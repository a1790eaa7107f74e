"""Writes qwen3-mixed-header.gguf: a two-layer Qwen3 header with eleven
tensor types, written by the PyPI `gguf` package (pip install gguf), the
tensor data left out (only the header is read).

Run from this folder: python qwen3-mixed-header.py
"""
import gguf, numpy as np
from gguf.constants import GGMLQuantizationType as T, GGML_QUANT_SIZES
w = gguf.GGUFWriter("qwen3-mixed-header.gguf", "qwen3")
w.add_block_count(2); w.add_context_length(40960); w.add_embedding_length(1024)
w.add_feed_forward_length(3072); w.add_head_count(16); w.add_head_count_kv(8)
w.add_key_length(128); w.add_value_length(128); w.add_file_type(15)
w.add_name("py-made")
w.add_array("tokenizer.ggml.tokens", [f"t{i}" for i in range(1000)])
w.add_array("tokenizer.ggml.token_type", [1]*1000)
w.add_array("some.floats", [0.5, 1.5])
w.add_bool("some.bool", True); w.add_uint64("some.u64", 2**40); w.add_int8("some.i8", -3)
w.add_float64("some.f64", 3.25)
def t(name, shape, ty):
    bs, ts = GGML_QUANT_SIZES[ty]
    n = int(np.prod(shape)) // bs * ts
    np_shape = tuple(shape[::-1])
    if ty not in (T.F32, T.F16):
        np_shape = np_shape[:-1] + (np_shape[-1] // bs * ts,)
    w.add_tensor_info(name, np_shape, np.dtype(np.uint8) if ty not in (T.F32,) else np.dtype(np.float32), n, raw_dtype=ty)
t("token_embd.weight", (1024, 1000), T.Q4_K)
t("output_norm.weight", (1024,), T.F32)
for i in range(2):
    t(f"blk.{i}.attn_norm.weight", (1024,), T.F32)
    t(f"blk.{i}.attn_q.weight", (2048, 1024), T.IQ3_S if i else T.Q5_K)
    t(f"blk.{i}.attn_k.weight", (1024, 1024), T.Q6_K)
    t(f"blk.{i}.attn_v.weight", (1024, 1024), T.Q8_0)
    t(f"blk.{i}.attn_output.weight", (1024, 2048), T.IQ4_XS)
    t(f"blk.{i}.attn_q_norm.weight", (128,), T.F32)
    t(f"blk.{i}.attn_k_norm.weight", (128,), T.F32)
    t(f"blk.{i}.ffn_norm.weight", (1024,), T.F32)
    t(f"blk.{i}.ffn_gate.weight", (3072, 1024), T.IQ2_XXS)
    t(f"blk.{i}.ffn_up.weight", (3072, 1024), T.IQ1_M)
    t(f"blk.{i}.ffn_down.weight", (1024, 3072), T.Q3_K)
w.write_header_to_file(); w.write_kv_data_to_file(); w.write_ti_data_to_file()
w.close()
