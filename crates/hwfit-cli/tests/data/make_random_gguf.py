#!/usr/bin/env python3
"""Write an F16 GGUF file with RANDOM weights shaped like HuggingFaceTB/SmolLM2-135M.

The model is only meant for timing with llama.cpp's `llama-bench` (which never
tokenizes text): the architecture, tensor names, shapes and dtypes follow what
llama.cpp's convert_hf_to_gguf.py writes for SmolLM2-135M(-Instruct), but every
weight matrix is drawn from N(0, std^2) and the tokenizer is a synthetic
byte-level BPE vocabulary of the right size (49152). Its outputs are garbage;
its speed is that of a real SmolLM2-135M of the same tensor types.

Shape source: crates/hwfit-core/data/models/configs/HuggingFaceTB__SmolLM2-135M-Instruct.json
(llama, hidden 576, 30 layers, 9 heads, 3 kv heads, intermediate 1536,
vocab 49152, tied embeddings, rope_theta 100000, rms_norm_eps 1e-5,
max_position_embeddings 8192).

Requires numpy and llama.cpp's own gguf-py (the `gguf` package from the
llama.cpp tree, e.g. PYTHONPATH=<llama.cpp>/gguf-py).

Usage: python3 make_random_gguf.py OUT.gguf [--seed 0] [--std 0.02]
"""

import argparse

import numpy as np

import gguf

# SmolLM2-135M hyper-parameters (from its config.json)
N_VOCAB = 49152
N_EMBD = 576
N_LAYER = 30
N_HEAD = 9
N_HEAD_KV = 3
N_FF = 1536
N_CTX_TRAIN = 8192
ROPE_THETA = 100000.0
RMS_EPS = 1e-5
HEAD_DIM = N_EMBD // N_HEAD  # 64

BOS_ID = 1  # <|im_start|>, as in the real config
EOS_ID = 2  # <|im_end|>
PAD_ID = 2
SPECIAL_TOKENS = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]


def bytes_to_unicode():
    """GPT-2's reversible byte -> printable unicode char mapping."""
    bs = (list(range(ord("!"), ord("~") + 1)) + list(range(ord("\xa1"), ord("\xac") + 1))
          + list(range(ord("\xae"), ord("\xff") + 1)))
    cs = bs[:]
    n = 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    return [chr(c) for _, c in sorted(zip(bs, cs))]


def synthetic_bpe_vocab():
    """Special tokens, the 256 byte tokens, then 2-char merges until N_VOCAB."""
    byte_chars = bytes_to_unicode()
    tokens = list(SPECIAL_TOKENS) + byte_chars
    types = [gguf.TokenType.CONTROL] * len(SPECIAL_TOKENS) + [gguf.TokenType.NORMAL] * 256
    merges = []
    need = N_VOCAB - len(tokens)
    for a in byte_chars:
        for b in byte_chars:
            if len(merges) == need:
                break
            merges.append(f"{a} {b}")
            tokens.append(a + b)
            types.append(gguf.TokenType.NORMAL)
        if len(merges) == need:
            break
    assert len(tokens) == N_VOCAB and len(set(tokens)) == N_VOCAB
    return tokens, types, merges


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--std", type=float, default=0.02)
    args = ap.parse_args()

    rng = np.random.default_rng(args.seed)

    def rand(*shape):
        # numpy shape is (rows, cols) = (ne1, ne0); gguf-py reverses it into GGUF order
        return (rng.standard_normal(shape, dtype=np.float32) * args.std).astype(np.float16)

    def ones(n):
        return np.ones((n,), dtype=np.float32)  # norms stay F32, like convert_hf_to_gguf.py

    arch = "llama"
    w = gguf.GGUFWriter(args.out, arch)
    w.add_name("SmolLM2-135M-shaped random weights")
    w.add_file_type(gguf.LlamaFileType.MOSTLY_F16)
    w.add_vocab_size(N_VOCAB)
    w.add_context_length(N_CTX_TRAIN)
    w.add_embedding_length(N_EMBD)
    w.add_block_count(N_LAYER)
    w.add_feed_forward_length(N_FF)
    w.add_head_count(N_HEAD)
    w.add_head_count_kv(N_HEAD_KV)
    w.add_rope_dimension_count(HEAD_DIM)
    w.add_rope_freq_base(ROPE_THETA)
    w.add_layer_norm_rms_eps(RMS_EPS)

    tokens, types, merges = synthetic_bpe_vocab()
    w.add_tokenizer_model("gpt2")
    w.add_tokenizer_pre("smollm")
    w.add_token_list(tokens)
    w.add_token_types(types)
    w.add_token_merges(merges)
    w.add_bos_token_id(BOS_ID)
    w.add_eos_token_id(EOS_ID)
    w.add_pad_token_id(PAD_ID)
    w.add_add_bos_token(False)

    n_embd_kv = HEAD_DIM * N_HEAD_KV  # 192
    w.add_tensor("token_embd.weight", rand(N_VOCAB, N_EMBD))  # tied: no output.weight
    for i in range(N_LAYER):
        p = f"blk.{i}."
        w.add_tensor(p + "attn_norm.weight", ones(N_EMBD))
        w.add_tensor(p + "attn_q.weight", rand(N_EMBD, N_EMBD))
        w.add_tensor(p + "attn_k.weight", rand(n_embd_kv, N_EMBD))
        w.add_tensor(p + "attn_v.weight", rand(n_embd_kv, N_EMBD))
        w.add_tensor(p + "attn_output.weight", rand(N_EMBD, N_EMBD))
        w.add_tensor(p + "ffn_norm.weight", ones(N_EMBD))
        w.add_tensor(p + "ffn_gate.weight", rand(N_FF, N_EMBD))
        w.add_tensor(p + "ffn_up.weight", rand(N_FF, N_EMBD))
        w.add_tensor(p + "ffn_down.weight", rand(N_EMBD, N_FF))
    w.add_tensor("output_norm.weight", ones(N_EMBD))

    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()


if __name__ == "__main__":
    main()
