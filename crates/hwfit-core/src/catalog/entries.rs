//! The built-in model catalog: architecture numbers from each model's published `config.json` on the
//! Hugging Face Hub (or the paper, for convolutional networks), named in each entry's `reference`.

use alloc::vec;
use alloc::vec::Vec;

use super::build::{bart, bert, conv, dense, gpt2, llama, stack, t5, vit, wav2vec2, whisper};
use super::sam2::Release;
use super::CatalogEntry;
use crate::spec::{Component, Modality, StackRole};
use crate::Subfamily::{
    AudioClassifier, CausalLm, ChatModel, DepthEstimation, DocumentQa, ImageClassifier, ImageTextEncoder, MaskedLm,
    ObjectDetector, Segmentation, SentenceTransformer, Seq2seq, SpeechRecognition, TextClassifier, TextToSpeech,
    TokenClassifier, VisionLanguage,
};

const HF: &str = "config.json on the Hugging Face Hub";

/// Every built-in entry.
#[must_use]
pub fn all() -> Vec<CatalogEntry> {
    let mut out = Vec::new();
    out.extend(embedding());
    out.extend(text_generation());
    out.extend(vision());
    out.extend(audio());
    out.extend(multimodal());
    out
}

fn embedding() -> Vec<CatalogEntry> {
    let bert_base = || bert(12, 768, 12, 3072, 30522, 512);
    let bert_large = || bert(24, 1024, 16, 4096, 30522, 512);
    let minilm = |layers| bert(layers, 384, 12, 1536, 30522, 512);
    vec![
        CatalogEntry::new("google-bert/bert-base-uncased", MaskedLm, 512, bert_base(), HF)
            .aliases(&["bert", "bert-base"]),
        CatalogEntry::new("google-bert/bert-large-uncased", MaskedLm, 512, bert_large(), HF).aliases(&["bert-large"]),
        CatalogEntry::new(
            "google-bert/bert-base-cased",
            MaskedLm,
            512,
            bert(12, 768, 12, 3072, 28996, 512),
            HF,
        ),
        CatalogEntry::new(
            "google-bert/bert-base-multilingual-cased",
            MaskedLm,
            512,
            bert(12, 768, 12, 3072, 119_547, 512),
            HF,
        )
        .aliases(&["mbert"]),
        CatalogEntry::new(
            "FacebookAI/roberta-base",
            MaskedLm,
            514,
            bert(12, 768, 12, 3072, 50265, 514),
            HF,
        )
        .aliases(&["roberta"]),
        CatalogEntry::new(
            "FacebookAI/roberta-large",
            MaskedLm,
            514,
            bert(24, 1024, 16, 4096, 50265, 514),
            HF,
        ),
        CatalogEntry::new(
            "FacebookAI/xlm-roberta-base",
            MaskedLm,
            514,
            bert(12, 768, 12, 3072, 250_002, 514),
            HF,
        ),
        CatalogEntry::new(
            "distilbert/distilbert-base-uncased",
            MaskedLm,
            512,
            bert(6, 768, 12, 3072, 30522, 512),
            HF,
        )
        .aliases(&["distilbert"]),
        CatalogEntry::new(
            "microsoft/deberta-v3-base",
            MaskedLm,
            512,
            bert(12, 768, 12, 3072, 128_100, 0),
            HF,
        ),
        CatalogEntry::new(
            "sentence-transformers/all-MiniLM-L6-v2",
            SentenceTransformer,
            512,
            minilm(6),
            HF,
        )
        .aliases(&["minilm", "all-minilm"]),
        CatalogEntry::new(
            "sentence-transformers/all-MiniLM-L12-v2",
            SentenceTransformer,
            512,
            minilm(12),
            HF,
        ),
        CatalogEntry::new(
            "sentence-transformers/all-mpnet-base-v2",
            SentenceTransformer,
            514,
            bert(12, 768, 12, 3072, 30527, 514),
            HF,
        ),
        CatalogEntry::new("BAAI/bge-small-en-v1.5", SentenceTransformer, 512, minilm(12), HF),
        CatalogEntry::new("BAAI/bge-base-en-v1.5", SentenceTransformer, 512, bert_base(), HF),
        CatalogEntry::new("BAAI/bge-large-en-v1.5", SentenceTransformer, 512, bert_large(), HF),
        CatalogEntry::new("intfloat/e5-base-v2", SentenceTransformer, 512, bert_base(), HF),
        CatalogEntry::new("intfloat/e5-large-v2", SentenceTransformer, 512, bert_large(), HF),
        CatalogEntry::new(
            "dslim/bert-base-NER",
            TokenClassifier,
            512,
            bert(12, 768, 12, 3072, 28996, 512),
            HF,
        ),
        CatalogEntry::new(
            "distilbert/distilbert-base-uncased-finetuned-sst-2-english",
            TextClassifier,
            512,
            bert(6, 768, 12, 3072, 30522, 512),
            HF,
        ),
        CatalogEntry::new(
            "cardiffnlp/twitter-roberta-base-sentiment-latest",
            TextClassifier,
            514,
            bert(12, 768, 12, 3072, 50265, 514),
            HF,
        ),
    ]
}

fn text_generation() -> Vec<CatalogEntry> {
    let llama2_7b = || vec![llama(32, 4096, 32, 32, 11008, 32000, false).component()];
    let llama3_8b = || vec![llama(32, 4096, 32, 8, 14336, 128_256, false).component()];
    let llama3_70b = || vec![llama(80, 8192, 64, 8, 28672, 128_256, false).component()];
    let mistral_7b = || vec![llama(32, 4096, 32, 8, 14336, 32000, false).component()];
    let qwen25_7b = || vec![llama(28, 3584, 28, 4, 18944, 152_064, false).component()];
    vec![
        CatalogEntry::new(
            "openai-community/gpt2",
            CausalLm,
            1024,
            gpt2(12, 768, 12, 50257, 1024),
            HF,
        )
        .aliases(&["gpt-2", "gpt2-small"]),
        CatalogEntry::new(
            "openai-community/gpt2-medium",
            CausalLm,
            1024,
            gpt2(24, 1024, 16, 50257, 1024),
            HF,
        ),
        CatalogEntry::new(
            "openai-community/gpt2-large",
            CausalLm,
            1024,
            gpt2(36, 1280, 20, 50257, 1024),
            HF,
        ),
        CatalogEntry::new(
            "openai-community/gpt2-xl",
            CausalLm,
            1024,
            gpt2(48, 1600, 25, 50257, 1024),
            HF,
        ),
        CatalogEntry::new(
            "distilbert/distilgpt2",
            CausalLm,
            1024,
            gpt2(6, 768, 12, 50257, 1024),
            HF,
        ),
        CatalogEntry::new("facebook/opt-125m", CausalLm, 2048, gpt2(12, 768, 12, 50272, 2050), HF),
        CatalogEntry::new("meta-llama/Llama-2-7b-hf", CausalLm, 4096, llama2_7b(), HF).aliases(&[
            "llama-2-7b",
            "llama 2 7b",
            "llama2-7b",
        ]),
        CatalogEntry::new("meta-llama/Llama-2-7b-chat-hf", ChatModel, 4096, llama2_7b(), HF)
            .aliases(&["llama 2 7b chat"]),
        CatalogEntry::new(
            "meta-llama/Llama-2-13b-hf",
            CausalLm,
            4096,
            vec![llama(40, 5120, 40, 40, 13824, 32000, false).component()],
            HF,
        )
        .aliases(&["llama-2-13b", "llama 2 13b"]),
        CatalogEntry::new(
            "meta-llama/Llama-2-70b-hf",
            CausalLm,
            4096,
            vec![llama(80, 8192, 64, 8, 28672, 32000, false).component()],
            HF,
        )
        .aliases(&["llama-2-70b", "llama 2 70b"]),
        CatalogEntry::new("meta-llama/Meta-Llama-3-8B", CausalLm, 8192, llama3_8b(), HF).aliases(&[
            "llama-3-8b",
            "llama 3 8b",
            "llama3-8b",
        ]),
        CatalogEntry::new("meta-llama/Meta-Llama-3-8B-Instruct", ChatModel, 8192, llama3_8b(), HF)
            .aliases(&["llama 3 8b instruct"]),
        CatalogEntry::new("meta-llama/Meta-Llama-3-70B", CausalLm, 8192, llama3_70b(), HF).aliases(&[
            "llama-3-70b",
            "llama 3 70b",
            "llama3-70b",
        ]),
        CatalogEntry::new("meta-llama/Llama-3.1-8B", CausalLm, 131_072, llama3_8b(), HF)
            .aliases(&["llama-3.1-8b", "llama 3.1 8b"]),
        CatalogEntry::new("meta-llama/Llama-3.1-8B-Instruct", ChatModel, 131_072, llama3_8b(), HF)
            .aliases(&["llama 3.1 8b instruct"]),
        CatalogEntry::new("meta-llama/Llama-3.1-70B", CausalLm, 131_072, llama3_70b(), HF)
            .aliases(&["llama-3.1-70b", "llama 3.1 70b"]),
        CatalogEntry::new(
            "meta-llama/Llama-3.1-405B",
            CausalLm,
            131_072,
            vec![llama(126, 16384, 128, 8, 53248, 128_256, false).component()],
            HF,
        )
        .aliases(&["llama-3.1-405b", "llama 3.1 405b"]),
        CatalogEntry::new(
            "meta-llama/Llama-3.2-1B",
            CausalLm,
            131_072,
            vec![llama(16, 2048, 32, 8, 8192, 128_256, true).head_dim(64).component()],
            HF,
        )
        .aliases(&["llama-3.2-1b", "llama 3.2 1b"]),
        CatalogEntry::new(
            "meta-llama/Llama-3.2-3B",
            CausalLm,
            131_072,
            vec![llama(28, 3072, 24, 8, 8192, 128_256, true).component()],
            HF,
        )
        .aliases(&["llama-3.2-3b", "llama 3.2 3b"]),
        CatalogEntry::new(
            "TinyLlama/TinyLlama-1.1B-Chat-v1.0",
            ChatModel,
            2048,
            vec![llama(22, 2048, 32, 4, 5632, 32000, false).component()],
            HF,
        )
        .aliases(&["tinyllama"]),
        CatalogEntry::new("mistralai/Mistral-7B-v0.1", CausalLm, 32768, mistral_7b(), HF)
            .aliases(&["mistral-7b", "mistral 7b"]),
        CatalogEntry::new("mistralai/Mistral-7B-Instruct-v0.2", ChatModel, 32768, mistral_7b(), HF)
            .aliases(&["mistral 7b instruct"]),
        CatalogEntry::new(
            "mistralai/Mixtral-8x7B-v0.1",
            CausalLm,
            32768,
            vec![llama(32, 4096, 32, 8, 14336, 32000, false).experts(8, 2).component()],
            HF,
        )
        .aliases(&["mixtral", "mixtral-8x7b", "mixtral 8x7b"]),
        CatalogEntry::new(
            "microsoft/phi-2",
            CausalLm,
            2048,
            vec![stack(StackRole::Decoder, Modality::Text, 32, 2560, 32, 10240)
                .vocab(51200, false)
                .rotary()
                .component()],
            HF,
        )
        .aliases(&["phi-2", "phi2"]),
        CatalogEntry::new(
            "microsoft/Phi-3-mini-4k-instruct",
            ChatModel,
            4096,
            vec![llama(32, 3072, 32, 32, 8192, 32064, false).component()],
            HF,
        )
        .aliases(&["phi-3-mini", "phi3-mini", "phi-3"]),
        CatalogEntry::new(
            "google/gemma-2b",
            CausalLm,
            8192,
            vec![llama(18, 2048, 8, 1, 16384, 256_000, true).head_dim(256).component()],
            HF,
        )
        .aliases(&["gemma-2b", "gemma 2b"]),
        CatalogEntry::new(
            "google/gemma-7b",
            CausalLm,
            8192,
            vec![llama(28, 3072, 16, 16, 24576, 256_000, true).head_dim(256).component()],
            HF,
        )
        .aliases(&["gemma-7b", "gemma 7b"]),
        CatalogEntry::new(
            "google/gemma-2-2b",
            CausalLm,
            8192,
            vec![llama(26, 2304, 8, 4, 9216, 256_000, true)
                .head_dim(256)
                .norms_per_layer(4)
                .component()],
            HF,
        )
        .aliases(&["gemma-2-2b", "gemma 2 2b"]),
        CatalogEntry::new(
            "google/gemma-2-9b",
            CausalLm,
            8192,
            vec![llama(42, 3584, 16, 8, 14336, 256_000, true)
                .head_dim(256)
                .norms_per_layer(4)
                .component()],
            HF,
        )
        .aliases(&["gemma-2-9b", "gemma 2 9b"]),
        CatalogEntry::new(
            "google/gemma-2-27b",
            CausalLm,
            8192,
            vec![llama(46, 4608, 32, 16, 36864, 256_000, true)
                .head_dim(128)
                .norms_per_layer(4)
                .component()],
            HF,
        )
        .aliases(&["gemma-2-27b", "gemma 2 27b"]),
        CatalogEntry::new("Qwen/Qwen2-7B", CausalLm, 131_072, qwen25_7b(), HF).aliases(&["qwen2-7b"]),
        CatalogEntry::new(
            "Qwen/Qwen2.5-0.5B",
            CausalLm,
            32768,
            vec![llama(24, 896, 14, 2, 4864, 151_936, true).component()],
            HF,
        )
        .aliases(&["qwen2.5-0.5b"]),
        CatalogEntry::new(
            "Qwen/Qwen2.5-1.5B",
            CausalLm,
            131_072,
            vec![llama(28, 1536, 12, 2, 8960, 151_936, true).component()],
            HF,
        )
        .aliases(&["qwen2.5-1.5b"]),
        CatalogEntry::new("Qwen/Qwen2.5-7B", CausalLm, 131_072, qwen25_7b(), HF)
            .aliases(&["qwen2.5-7b", "qwen 2.5 7b"]),
        CatalogEntry::new("Qwen/Qwen2.5-7B-Instruct", ChatModel, 32768, qwen25_7b(), HF)
            .aliases(&["qwen2.5-7b-instruct"]),
        CatalogEntry::new(
            "Qwen/Qwen2.5-72B",
            CausalLm,
            131_072,
            vec![llama(80, 8192, 64, 8, 29568, 152_064, false).component()],
            HF,
        )
        .aliases(&["qwen2.5-72b"]),
        CatalogEntry::new(
            "google-t5/t5-small",
            Seq2seq,
            512,
            t5(512, 2048, 8, 6, 32128, false, true),
            HF,
        ),
        CatalogEntry::new(
            "google-t5/t5-base",
            Seq2seq,
            512,
            t5(768, 3072, 12, 12, 32128, false, true),
            HF,
        ),
        CatalogEntry::new(
            "google-t5/t5-large",
            Seq2seq,
            512,
            t5(1024, 4096, 16, 24, 32128, false, true),
            HF,
        ),
        CatalogEntry::new(
            "google/flan-t5-small",
            Seq2seq,
            512,
            t5(512, 1024, 6, 8, 32128, true, false),
            HF,
        ),
        CatalogEntry::new(
            "google/flan-t5-base",
            Seq2seq,
            512,
            t5(768, 2048, 12, 12, 32128, true, false),
            HF,
        )
        .aliases(&["flan-t5"]),
        CatalogEntry::new(
            "google/flan-t5-large",
            Seq2seq,
            512,
            t5(1024, 2816, 16, 24, 32128, true, false),
            HF,
        ),
        CatalogEntry::new(
            "google/flan-t5-xl",
            Seq2seq,
            512,
            t5(2048, 5120, 32, 24, 32128, true, false),
            HF,
        ),
        CatalogEntry::new(
            "facebook/bart-base",
            Seq2seq,
            1024,
            bart(768, 6, 12, 3072, 50265, 1026),
            HF,
        )
        .aliases(&["bart"]),
        CatalogEntry::new(
            "facebook/bart-large",
            Seq2seq,
            1024,
            bart(1024, 12, 16, 4096, 50265, 1026),
            HF,
        ),
        CatalogEntry::new(
            "facebook/bart-large-cnn",
            Seq2seq,
            1024,
            bart(1024, 12, 16, 4096, 50264, 1026),
            HF,
        ),
    ]
}

fn vision() -> Vec<CatalogEntry> {
    let vit_b = |image, patch| vec![vit(12, 768, 12, 3072, image, patch).component()];
    vec![
        CatalogEntry::new("google/vit-base-patch16-224", ImageClassifier, 0, vit_b(224, 16), HF).aliases(&["vit", "vit-base", "vit-b/16"]),
        CatalogEntry::new("google/vit-large-patch16-224", ImageClassifier, 0, vec![vit(24, 1024, 16, 4096, 224, 16).component()], HF)
            .aliases(&["vit-large", "vit-l/16"]),
        CatalogEntry::new("facebook/deit-small-patch16-224", ImageClassifier, 0, vec![vit(12, 384, 6, 1536, 224, 16).component()], HF)
            .aliases(&["deit-small"]),
        CatalogEntry::new("facebook/deit-base-patch16-224", ImageClassifier, 0, vit_b(224, 16), HF).aliases(&["deit", "deit-base"]),
        CatalogEntry::new("facebook/dinov2-base", ImageClassifier, 0, vec![vit(12, 768, 12, 3072, 518, 14).component()], HF)
            .aliases(&["dinov2"]),
        CatalogEntry::new(
            "facebook/convnext-tiny-224",
            ImageClassifier,
            0,
            // Liu et al. 2022 (ConvNeXt), Table 1: 28.6 M parameters, 4.5 GMACs; feature maps: stem,
            // 3-3-9-3 blocks of (dwconv, norm, 4× expansion, GELU, projection), downsamples; depth 59:
            // stem, 18 blocks × 3, 3 downsamples, classifier.
            vec![conv(28_589_128, 4_500_000_000, 1_204_224, 24_423_168, 224, 59)],
            "Liu et al. 2022 (ConvNeXt), Table 1; facebook/convnext-tiny-224 config.json",
        )
        .aliases(&["convnext-tiny", "convnext"]),
        CatalogEntry::new(
            "facebook/detr-resnet-50",
            ObjectDetector,
            0,
            // Carion et al. 2020 (DETR), Table 1: 41 M parameters, 86 GFLOPs (fvcore counts MACs) at
            // COCO resolution (~800×1200); feature maps: ResNet-50's scaled by 800×1200/224² = 19.1;
            // depth 154: ResNet-50's 53 convolutions, the input projection, 6 encoder layers × 6 and 6
            // decoder layers × 10 linear layers, 4 head layers.
            vec![conv(41_302_368, 86_000_000_000, 15_360_000, 216_130_000, 800, 154)],
            "Carion et al. 2020 (DETR), Table 1; facebook/detr-resnet-50 config.json",
        )
        .aliases(&["detr"]),
        yolo("Ultralytics/YOLO11n", 0).aliases(&["yolo11n", "yolo11n.pt", "yolov11n", "yolo11"]),
        yolo("Ultralytics/YOLO11s", 1).aliases(&["yolo11s", "yolo11s.pt", "yolov11s"]),
        yolo("Ultralytics/YOLO11m", 2).aliases(&["yolo11m", "yolo11m.pt", "yolov11m"]),
        yolo("Ultralytics/YOLO11l", 3).aliases(&["yolo11l", "yolo11l.pt", "yolov11l"]),
        yolo("Ultralytics/YOLO11x", 4).aliases(&["yolo11x", "yolo11x.pt", "yolov11x"]),
        yolov8("Ultralytics/YOLOv8n", 0).aliases(&["yolov8n", "yolov8n.pt", "yolov8"]),
        yolov8("Ultralytics/YOLOv8s", 1).aliases(&["yolov8s", "yolov8s.pt"]),
        yolov8("Ultralytics/YOLOv8m", 2).aliases(&["yolov8m", "yolov8m.pt"]),
        yolov8("Ultralytics/YOLOv8l", 3).aliases(&["yolov8l", "yolov8l.pt"]),
        yolov8("Ultralytics/YOLOv8x", 4).aliases(&["yolov8x", "yolov8x.pt"]),
        CatalogEntry::new(
            "facebook/sam-vit-base",
            Segmentation,
            0,
            vec![
                vit(12, 768, 12, 3072, 1024, 16).component(),
                // Mask decoder parameters from the SAM checkpoint; FLOPs bounded by applying every
                // weight to each of the 64×64 image embeddings.
                dense("prompt encoder + mask decoder", 4_058_340, 2 * 4_058_340 * 4096),
            ],
            "config.json on the Hugging Face Hub; Kirillov et al. 2023 (SAM). The cost model treats SAM's windowed attention as global (upper bound).",
        )
        .aliases(&["sam", "sam-vit-b"]),
        sam2("facebook/sam2.1-hiera-tiny", 0, Release::Sam2_1).aliases(&["sam2.1-hiera-t", "sam2.1_hiera_tiny", "sam2.1", "sam2"]),
        sam2("facebook/sam2.1-hiera-small", 1, Release::Sam2_1).aliases(&["sam2.1-hiera-s", "sam2.1_hiera_small"]),
        sam2("facebook/sam2.1-hiera-base-plus", 2, Release::Sam2_1).aliases(&["sam2.1-hiera-b+", "sam2.1_hiera_base_plus"]),
        sam2("facebook/sam2.1-hiera-large", 3, Release::Sam2_1).aliases(&["sam2.1-hiera-l", "sam2.1_hiera_large"]),
        sam2("facebook/sam2-hiera-tiny", 0, Release::Sam2).aliases(&["sam2-hiera-t", "sam2_hiera_tiny"]),
        sam2("facebook/sam2-hiera-small", 1, Release::Sam2).aliases(&["sam2-hiera-s", "sam2_hiera_small"]),
        sam2("facebook/sam2-hiera-base-plus", 2, Release::Sam2).aliases(&["sam2-hiera-b+", "sam2_hiera_base_plus"]),
        sam2("facebook/sam2-hiera-large", 3, Release::Sam2).aliases(&["sam2-hiera-l", "sam2_hiera_large"]),
        CatalogEntry::new(
            "Intel/dpt-large",
            DepthEstimation,
            0,
            vec![
                vit(24, 1024, 16, 4096, 384, 16).component(),
                // 343 M published total minus the computed ViT-L/16 backbone; head FLOPs not counted.
                dense("reassemble + fusion head", 39_600_000, 0),
            ],
            "config.json on the Hugging Face Hub; Ranftl et al. 2021 (DPT): 343 M parameters. Head FLOPs are not counted.",
        )
        .aliases(&["dpt-large", "dpt"]),
    ]
}

fn audio() -> Vec<CatalogEntry> {
    vec![
        CatalogEntry::new(
            "openai/whisper-tiny",
            SpeechRecognition,
            448,
            whisper(384, 4, 6, 1536, 51865, 80),
            HF,
        ),
        CatalogEntry::new(
            "openai/whisper-base",
            SpeechRecognition,
            448,
            whisper(512, 6, 8, 2048, 51865, 80),
            HF,
        ),
        CatalogEntry::new(
            "openai/whisper-small",
            SpeechRecognition,
            448,
            whisper(768, 12, 12, 3072, 51865, 80),
            HF,
        ),
        CatalogEntry::new(
            "openai/whisper-medium",
            SpeechRecognition,
            448,
            whisper(1024, 24, 16, 4096, 51865, 80),
            HF,
        ),
        CatalogEntry::new(
            "openai/whisper-large-v3",
            SpeechRecognition,
            448,
            whisper(1280, 32, 20, 5120, 51866, 128),
            HF,
        )
        .aliases(&["whisper-large"]),
        CatalogEntry::new(
            "facebook/wav2vec2-base-960h",
            SpeechRecognition,
            0,
            wav2vec2(12, 768, 12, 3072),
            HF,
        )
        .aliases(&["wav2vec2", "wav2vec2-base"]),
        CatalogEntry::new(
            "facebook/wav2vec2-large-960h",
            SpeechRecognition,
            0,
            wav2vec2(24, 1024, 16, 4096),
            HF,
        )
        .aliases(&["wav2vec2-large"]),
        CatalogEntry::new(
            "facebook/hubert-base-ls960",
            SpeechRecognition,
            0,
            wav2vec2(12, 768, 12, 3072),
            HF,
        )
        .aliases(&["hubert", "hubert-base"]),
        CatalogEntry::new(
            "facebook/hubert-large-ls960-ft",
            SpeechRecognition,
            0,
            wav2vec2(24, 1024, 16, 4096),
            HF,
        )
        .aliases(&["hubert-large"]),
        CatalogEntry::new(
            "microsoft/speecht5_tts",
            TextToSpeech,
            600,
            vec![
                stack(StackRole::Encoder, Modality::Text, 12, 768, 12, 3072)
                    .vocab(81, true)
                    .component(),
                // The decoder consumes and emits 80-bin mel frames (no text vocabulary).
                stack(
                    StackRole::CrossDecoder,
                    Modality::Audio { frames: 600 },
                    6,
                    768,
                    12,
                    3072,
                )
                .component(),
            ],
            HF,
        )
        .aliases(&["speecht5", "speecht5-tts"]),
        CatalogEntry::new(
            "MIT/ast-finetuned-audioset-10-10-0.4593",
            AudioClassifier,
            0,
            // 1024 frames × 128 mel bins in 16×16 patches at stride 10: 101 × 12 = 1212 patches + 2 tokens.
            vec![
                stack(StackRole::Encoder, Modality::Audio { frames: 1214 }, 12, 768, 12, 3072)
                    .positions(1214)
                    .component(),
            ],
            HF,
        )
        .aliases(&["ast", "audio-spectrogram-transformer"]),
    ]
}

fn multimodal() -> Vec<CatalogEntry> {
    let clip_text = |layers, hidden, heads, inter| {
        stack(StackRole::Encoder, Modality::Text, layers, hidden, heads, inter)
            .vocab(49408, true)
            .positions(77)
            .component()
    };
    let projections = |vision: u64, text: u64, embed: u64| {
        dense(
            "image/text projections",
            (vision + text) * embed,
            2 * (vision + text) * embed,
        )
    };
    let clip_b = |patch| {
        vec![
            vit(12, 768, 12, 3072, 224, patch).component(),
            clip_text(12, 512, 8, 2048),
            projections(768, 512, 512),
        ]
    };
    // LLaVA-1.5: CLIP ViT-L/14 at 336² (577 tokens) + 2-layer MLP projector + Vicuna (Llama 2 shape).
    let llava = |layers, hidden, heads, inter| {
        let h = u64::from(hidden);
        vec![
            vit(24, 1024, 16, 4096, 336, 14).component(),
            dense("multimodal projector", 1024 * h + h * h, 2 * 577 * (1024 * h + h * h)),
            llama(layers, hidden, heads, heads, inter, 32064, false).component(),
        ]
    };
    vec![
        CatalogEntry::new("openai/clip-vit-base-patch32", ImageTextEncoder, 77, clip_b(32), HF)
            .aliases(&["clip", "clip-vit-b/32"]),
        CatalogEntry::new("openai/clip-vit-base-patch16", ImageTextEncoder, 77, clip_b(16), HF)
            .aliases(&["clip-vit-b/16"]),
        CatalogEntry::new(
            "openai/clip-vit-large-patch14",
            ImageTextEncoder,
            77,
            vec![
                vit(24, 1024, 16, 4096, 224, 14).component(),
                clip_text(12, 768, 12, 3072),
                projections(1024, 768, 768),
            ],
            HF,
        )
        .aliases(&["clip-vit-l/14", "clip-large"]),
        CatalogEntry::new(
            "google/siglip-base-patch16-224",
            ImageTextEncoder,
            64,
            vec![
                vit(12, 768, 12, 3072, 224, 16).component(),
                // Multihead attention-pooling head: one attention block and one MLP at width 768.
                dense(
                    "attention-pooling head",
                    4 * 768 * 768 + 2 * 768 * 3072,
                    2 * (4 * 768 * 768 + 2 * 768 * 3072),
                ),
                stack(StackRole::Encoder, Modality::Text, 12, 768, 12, 3072)
                    .vocab(32000, true)
                    .positions(64)
                    .component(),
                dense("text head", 768 * 768, 2 * 768 * 768),
            ],
            HF,
        )
        .aliases(&["siglip"]),
        CatalogEntry::new(
            "Salesforce/blip-image-captioning-base",
            VisionLanguage,
            512,
            vec![
                vit(12, 768, 12, 3072, 384, 16).component(),
                stack(StackRole::CrossDecoder, Modality::Text, 12, 768, 12, 3072)
                    .vocab(30524, false)
                    .positions(512)
                    .component(),
            ],
            HF,
        )
        .aliases(&["blip", "blip-base"]),
        CatalogEntry::new(
            "llava-hf/llava-1.5-7b-hf",
            VisionLanguage,
            4096,
            llava(32, 4096, 32, 11008),
            HF,
        )
        .aliases(&["llava", "llava-1.5-7b"]),
        CatalogEntry::new(
            "llava-hf/llava-1.5-13b-hf",
            VisionLanguage,
            4096,
            llava(40, 5120, 40, 13824),
            HF,
        )
        .aliases(&["llava-1.5-13b"]),
        CatalogEntry::new(
            "microsoft/layoutlm-base-uncased",
            DocumentQa,
            512,
            layoutlm(30522, 512),
            "config.json on the Hugging Face Hub; 2-D positions: four 1024-row tables (x, y, height, width)",
        )
        .aliases(&["layoutlm"]),
        CatalogEntry::new(
            "impira/layoutlm-document-qa",
            DocumentQa,
            514,
            layoutlm(50265, 514),
            "config.json on the Hugging Face Hub; 2-D positions: four 1024-row tables (x, y, height, width)",
        ),
    ]
}

/// A YOLO11 scale (`super::yolo::SCALES`), built from `yolo11.yaml`.
fn yolo(id: &str, scale: usize) -> CatalogEntry {
    let reference = "ultralytics/cfg/models/11/yolo11.yaml (github.com/ultralytics/ultralytics @ 0a2ae50b), built as ultralytics' parse_model builds it: the yaml's parameter count exactly; FLOPs at 640 px";
    let network = super::yolo::yolo11(&super::yolo::SCALES[scale]);
    CatalogEntry::new(id, ObjectDetector, 0, vec![network], reference)
}

/// A YOLOv8 scale (`super::yolo::V8_SCALES`), built from `yolov8.yaml`.
fn yolov8(id: &str, scale: usize) -> CatalogEntry {
    let reference = "ultralytics/cfg/models/v8/yolov8.yaml (github.com/ultralytics/ultralytics @ 023641f5), built as ultralytics' parse_model builds it: the yaml's parameter count exactly; FLOPs at 640 px";
    let network = super::yolo::yolov8(&super::yolo::V8_SCALES[scale]);
    CatalogEntry::new(id, ObjectDetector, 0, vec![network], reference)
}

/// A SAM 2 or 2.1 scale (`super::sam2::SCALES`), built from facebookresearch/sam2's configs.
fn sam2(id: &str, scale: usize, release: Release) -> CatalogEntry {
    let reference = match release {
        Release::Sam2 => "sam2/configs/sam2/sam2_hiera_*.yaml (github.com/facebookresearch/sam2 @ 2b90b9f5), built as sam2/modeling builds it: its parameters exactly (README: 38.9/46/80.8/224.4 M); FLOPs of one video frame at 1024 px with a full memory bank",
        Release::Sam2_1 => "sam2/configs/sam2.1/sam2.1_hiera_*.yaml (github.com/facebookresearch/sam2 @ 2b90b9f5), built as sam2/modeling builds it: its parameters exactly (README: 38.9/46/80.8/224.4 M); FLOPs of one video frame at 1024 px with a full memory bank",
    };
    CatalogEntry::new(
        id,
        Segmentation,
        0,
        super::sam2::sam2(&super::sam2::SCALES[scale], release),
        reference,
    )
}

/// LayoutLM v1: a BERT-base encoder with four 1024-row 2-D position tables.
fn layoutlm(vocab: u32, positions: u32) -> Vec<Component> {
    let mut parts = bert(12, 768, 12, 3072, vocab, positions);
    parts.push(dense("2-D position embeddings", 4 * 1024 * 768, 0));
    parts
}
