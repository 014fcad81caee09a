"""The aten calls eager PyTorch dispatches for encoder-decoder models (T5, flan-T5's gated-gelu T5,
BART), per layer and fixed, in a forward pass and a decode step.

    count_seq2seq_ops.py OUT.json

Each model is built from a small config of its class (the calls do not depend on the widths) with
1 and 2 encoder and decoder layers; one step runs on the CPU under a TorchDispatchMode that counts
every aten call (views included). The difference of the two counts is one layer's calls (forward: an
encoder and a decoder layer; decode: a decoder layer), the rest the step's fixed part. A forward pass
is `model(input_ids, decoder_input_ids)` over 32 tokens each; a decode step one decoder token after 4,
with the encoder's output and the cache given. fp32 and bf16 (RMS norms cast in bf16).
"""
import collections, json, sys, torch, transformers
from torch.utils._python_dispatch import TorchDispatchMode
from transformers import BartConfig, BartForConditionalGeneration, T5Config, T5ForConditionalGeneration

class Count(TorchDispatchMode):
    def __init__(self): super().__init__(); self.n = 0; self.names = collections.Counter()
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.n += 1; self.names[str(func.overloadpacket.__name__)] += 1
        return func(*args, **(kwargs or {}))

def build(kind, layers):
    torch.manual_seed(0)
    small = dict(d_model=64, d_ff=128, num_heads=4, d_kv=16, num_layers=layers, num_decoder_layers=layers, vocab_size=200)
    if kind == 't5':
        return T5ForConditionalGeneration(T5Config(**small)).eval()
    if kind == 'flan-t5':
        return T5ForConditionalGeneration(T5Config(**small, feed_forward_proj='gated-gelu', tie_word_embeddings=False)).eval()
    cfg = BartConfig(d_model=64, encoder_ffn_dim=128, decoder_ffn_dim=128, encoder_attention_heads=4,
                     decoder_attention_heads=4, encoder_layers=layers, decoder_layers=layers, vocab_size=200,
                     max_position_embeddings=512)
    return BartForConditionalGeneration(cfg).eval()

def count(kind, layers, workload, dtype, seq=32):
    m = build(kind, layers).to(dtype)
    ids = torch.randint(0, 100, (1, seq)); mask = torch.ones(1, seq, dtype=torch.long)
    with torch.inference_mode():
        if workload == 'forward':
            with Count() as c:
                m(input_ids=ids, attention_mask=mask, decoder_input_ids=ids)
        else:
            enc = m.get_encoder()(input_ids=ids, attention_mask=mask)
            out = m(encoder_outputs=enc, attention_mask=mask, decoder_input_ids=ids[:, :4], use_cache=True)
            with Count() as c:
                m(encoder_outputs=enc, attention_mask=mask, decoder_input_ids=ids[:, 4:5],
                  past_key_values=out.past_key_values, use_cache=True)
    return c

res = {}
for kind in ['t5', 'flan-t5', 'bart']:
    for workload in ['forward', 'decode']:
        for dtype in [torch.float32, torch.bfloat16]:
            a, b = count(kind, 1, workload, dtype), count(kind, 2, workload, dtype)
            per = b.n - a.n
            key = f'{kind} {workload} {str(dtype).removeprefix("torch.")}'
            res[key] = dict(per_layer=per, fixed=a.n - per, top=(b.names - a.names).most_common(14))
            print(key, 'per layer:', per, 'fixed:', a.n - per)
res['versions'] = dict(transformers=transformers.__version__, torch=torch.__version__)
json.dump(res, open(sys.argv[1], 'w'), indent=1)
