//! Model families and subfamilies, with IPFS Accelerate's names as string form.

string_enum! {
    /// The five model families of the classifier guide.
    pub enum Family: "family" {
        /// Text encoders producing representations (BERT, RoBERTa, sentence-transformers …).
        Embedding => "embedding",
        /// Language models that generate text (GPT, Llama, T5 …).
        TextGeneration => "text_generation" | "text-generation" | "llm" | "generation",
        /// Image models (ViT, ResNet, DETR …).
        Vision => "vision",
        /// Speech and audio models (Whisper, wav2vec2, HuBERT …).
        Audio => "audio",
        /// Models combining modalities (CLIP, BLIP, LLaVA, LayoutLM …).
        Multimodal => "multimodal",
    }
}

string_enum! {
    /// The subfamilies of the classifier guide, plus `text_classifier` for fine-tuned sequence
    /// classifiers (sentiment, NLI), which the guide's three embedding subfamilies do not cover.
    pub enum Subfamily: "subfamily" {
        /// Masked language model (pre-training head or bare encoder).
        MaskedLm => "masked_lm",
        /// Sentence embedding model.
        SentenceTransformer => "sentence_transformer",
        /// Token classifier (NER, POS, extractive QA spans).
        TokenClassifier => "token_classifier",
        /// Sequence classifier (sentiment, NLI, topic).
        TextClassifier => "text_classifier",
        /// Decoder-only causal LM.
        CausalLm => "causal_lm",
        /// Encoder-decoder LM.
        Seq2seq => "seq2seq",
        /// Instruction/chat tuned LM.
        ChatModel => "chat_model",
        /// Image classifier / backbone.
        ImageClassifier => "image_classifier",
        /// Object detector.
        ObjectDetector => "object_detector",
        /// Image segmentation.
        Segmentation => "segmentation",
        /// Monocular depth estimation.
        DepthEstimation => "depth_estimation",
        /// Speech recognition.
        SpeechRecognition => "speech_recognition",
        /// Audio classification.
        AudioClassifier => "audio_classifier",
        /// Speech synthesis.
        TextToSpeech => "text_to_speech",
        /// Vision-language generation (captioning, VQA, visual chat).
        VisionLanguage => "vision_language",
        /// Dual encoders of image and text (CLIP, SigLIP).
        ImageTextEncoder => "image_text_encoder",
        /// Document understanding (layout-aware QA).
        DocumentQa => "document_qa",
    }
}

impl Family {
    /// The subfamily assumed when nothing names one.
    #[must_use]
    pub const fn default_subfamily(self) -> Subfamily {
        match self {
            Self::Embedding => Subfamily::MaskedLm,
            Self::TextGeneration => Subfamily::CausalLm,
            Self::Vision => Subfamily::ImageClassifier,
            Self::Audio => Subfamily::SpeechRecognition,
            Self::Multimodal => Subfamily::VisionLanguage,
        }
    }
}

impl Subfamily {
    /// The Hugging Face pipeline task that runs a model of this subfamily.
    #[must_use]
    pub const fn pipeline_task(self) -> &'static str {
        match self {
            Self::MaskedLm => "fill-mask",
            Self::SentenceTransformer => "feature-extraction",
            Self::TokenClassifier => "token-classification",
            Self::TextClassifier => "text-classification",
            Self::CausalLm | Self::ChatModel => "text-generation",
            Self::Seq2seq => "text2text-generation",
            Self::ImageClassifier => "image-classification",
            Self::ObjectDetector => "object-detection",
            Self::Segmentation => "image-segmentation",
            Self::DepthEstimation => "depth-estimation",
            Self::SpeechRecognition => "automatic-speech-recognition",
            Self::AudioClassifier => "audio-classification",
            Self::TextToSpeech => "text-to-speech",
            Self::VisionLanguage => "image-to-text",
            Self::ImageTextEncoder => "zero-shot-image-classification",
            Self::DocumentQa => "document-question-answering",
        }
    }

    /// The family this subfamily belongs to.
    #[must_use]
    pub const fn family(self) -> Family {
        match self {
            Self::MaskedLm | Self::SentenceTransformer | Self::TokenClassifier | Self::TextClassifier => {
                Family::Embedding
            }
            Self::CausalLm | Self::Seq2seq | Self::ChatModel => Family::TextGeneration,
            Self::ImageClassifier | Self::ObjectDetector | Self::Segmentation | Self::DepthEstimation => Family::Vision,
            Self::SpeechRecognition | Self::AudioClassifier | Self::TextToSpeech => Family::Audio,
            Self::VisionLanguage | Self::ImageTextEncoder | Self::DocumentQa => Family::Multimodal,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_family_has_subfamilies() {
        for family in Family::ALL {
            assert!(Subfamily::ALL.iter().any(|s| s.family() == *family), "{family}");
        }
    }
}
