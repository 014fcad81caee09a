#!/usr/bin/env python3
"""Writes an F16 GGUF file of a Llama-architecture model from its config.json, with random weights
(llama-bench times the arithmetic and the memory traffic, not the answers), for `llama-quantize` and
`hwfit bench --runtime llama.cpp` on a machine that cannot download models.

    random_gguf.py CONFIG_JSON OUT.gguf [--gguf-py DIR]

The vocabulary is a SentencePiece-style stand-in of the config's `vocab_size` tokens (<unk>, <s>,
</s>, the 256 byte tokens, then placeholders): the embedding and output matrices have the real
shapes. Tensor names and metadata keys are llama.cpp's (`gguf-py`'s constants); every linear weight
is stored (out, in) as `convert_hf_to_gguf.py` stores it.
"""
import argparse
import json
import sys

import numpy as np


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("config")
    ap.add_argument("out")
    ap.add_argument("--gguf-py", default=None, help="llama.cpp's gguf-py folder")
    a = ap.parse_args()
    if a.gguf_py:
        sys.path.insert(0, a.gguf_py)
    import gguf

    c = json.load(open(a.config))
    hidden = c["hidden_size"]
    layers = c["num_hidden_layers"]
    heads = c["num_attention_heads"]
    kv_heads = c.get("num_key_value_heads", heads)
    head_dim = c.get("head_dim") or hidden // heads
    ffn = c["intermediate_size"]
    vocab = c["vocab_size"]
    tied = c.get("tie_word_embeddings", False)

    w = gguf.GGUFWriter(a.out, "llama")
    w.add_name(c.get("_name_or_path") or a.config)
    w.add_context_length(c.get("max_position_embeddings", 4096))
    w.add_embedding_length(hidden)
    w.add_block_count(layers)
    w.add_feed_forward_length(ffn)
    w.add_head_count(heads)
    w.add_head_count_kv(kv_heads)
    w.add_key_length(head_dim)
    w.add_value_length(head_dim)
    w.add_rope_dimension_count(head_dim)
    w.add_rope_freq_base(float(c.get("rope_theta", 10000.0)))
    w.add_layer_norm_rms_eps(float(c.get("rms_norm_eps", 1e-5)))
    w.add_vocab_size(vocab)
    w.add_file_type(gguf.LlamaFileType.MOSTLY_F16)

    tokens = ["<unk>", "<s>", "</s>"] + [f"<0x{b:02X}>" for b in range(256)]
    types = [gguf.TokenType.UNKNOWN, gguf.TokenType.CONTROL, gguf.TokenType.CONTROL] + [gguf.TokenType.BYTE] * 256
    tokens += [f"t{i}" for i in range(vocab - len(tokens))]
    types += [gguf.TokenType.NORMAL] * (vocab - len(types))
    w.add_tokenizer_model("llama")
    w.add_token_list(tokens)
    w.add_token_scores([0.0] * vocab)
    w.add_token_types(types)
    w.add_bos_token_id(1)
    w.add_eos_token_id(2)
    w.add_unk_token_id(0)

    rng = np.random.default_rng(0)
    largest = max(vocab * hidden, ffn * hidden)
    pool = (rng.standard_normal(largest, dtype=np.float32) * 0.02).astype(np.float16)

    def matrix(rows, cols):
        return pool[: rows * cols].reshape(rows, cols)

    ones = np.ones(hidden, dtype=np.float32)
    w.add_tensor("token_embd.weight", matrix(vocab, hidden))
    w.add_tensor("output_norm.weight", ones)
    if not tied:
        w.add_tensor("output.weight", matrix(vocab, hidden))
    for i in range(layers):
        p = f"blk.{i}."
        w.add_tensor(p + "attn_norm.weight", ones)
        w.add_tensor(p + "attn_q.weight", matrix(heads * head_dim, hidden))
        w.add_tensor(p + "attn_k.weight", matrix(kv_heads * head_dim, hidden))
        w.add_tensor(p + "attn_v.weight", matrix(kv_heads * head_dim, hidden))
        w.add_tensor(p + "attn_output.weight", matrix(hidden, heads * head_dim))
        w.add_tensor(p + "ffn_norm.weight", ones)
        w.add_tensor(p + "ffn_gate.weight", matrix(ffn, hidden))
        w.add_tensor(p + "ffn_up.weight", matrix(ffn, hidden))
        w.add_tensor(p + "ffn_down.weight", matrix(hidden, ffn))

    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()


if __name__ == "__main__":
    main()
