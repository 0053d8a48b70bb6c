"""Tiny real models built on the spot, so provider tests load real weights offline in well under a second.

`build_tiny_bge_m3` writes a directory with the same layout as `BAAI/bge-m3` (XLM-RoBERTa config and weights, a
fast tokenizer, `colbert_linear.pt`, `sparse_linear.pt`), which production code loads exactly like the real model.
"""

from __future__ import annotations

from pathlib import Path

HIDDEN = 32
MAX_TOKENS = 128
SPECIAL = ["<s>", "<pad>", "</s>", "<unk>", "<mask>"]  # XLM-R ids: bos 0, pad 1, eos 2, unk 3
WORDS = (
    "el la los las de del en y a que un una por con para mi su al lo se es fue era muy más "
    "abuela abuelo madre padre hermana hermano perro gato casa jardín mar playa pueblo ciudad "
    "verano invierno domingo mañana noche fiesta boda viaje tren coche cena comida paella tortilla "
    "cádiz sevilla barcelona madrid josep maría lucía recuerdo recuerdos fuimos comimos cantamos "
    "the grandmother dog beach summer dinner trip train house garden"
).split()


def build_tiny_bge_m3(directory: Path, seed: int = 7) -> Path:
    """An XLM-RoBERTa encoder with hidden size 32, a word-level tokenizer and the two BGE-M3 heads."""
    import torch
    from tokenizers import Tokenizer, normalizers, pre_tokenizers, processors
    from tokenizers.models import WordLevel
    from transformers import PreTrainedTokenizerFast, XLMRobertaConfig, XLMRobertaModel

    directory.mkdir(parents=True, exist_ok=True)
    vocab = {token: i for i, token in enumerate([*SPECIAL, *dict.fromkeys(WORDS)])}
    tok = Tokenizer(WordLevel(vocab, unk_token="<unk>"))
    tok.normalizer = normalizers.Sequence([normalizers.NFC(), normalizers.Lowercase()])
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    tok.post_processor = processors.TemplateProcessing(
        single="<s> $A </s>",
        pair="<s> $A </s> </s> $B </s>",
        special_tokens=[("<s>", vocab["<s>"]), ("</s>", vocab["</s>"])],
    )
    tokenizer = PreTrainedTokenizerFast(
        tokenizer_object=tok,
        bos_token="<s>",
        eos_token="</s>",
        cls_token="<s>",
        sep_token="</s>",
        pad_token="<pad>",
        unk_token="<unk>",
        mask_token="<mask>",
        model_max_length=MAX_TOKENS,
    )
    tokenizer.save_pretrained(directory)

    torch.manual_seed(seed)
    config = XLMRobertaConfig(
        vocab_size=len(vocab),
        hidden_size=HIDDEN,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=64,
        max_position_embeddings=MAX_TOKENS + 2,
        type_vocab_size=1,
        pad_token_id=vocab["<pad>"],
        bos_token_id=vocab["<s>"],
        eos_token_id=vocab["</s>"],
    )
    XLMRobertaModel(config).save_pretrained(directory, safe_serialization=True)

    colbert = torch.nn.Linear(HIDDEN, HIDDEN)
    sparse = torch.nn.Linear(HIDDEN, 1)
    with torch.no_grad():  # a positive bias keeps every real token's weight above zero
        sparse.weight.mul_(0.1)
        sparse.bias.fill_(1.0)
    torch.save(colbert.state_dict(), directory / "colbert_linear.pt")
    torch.save(sparse.state_dict(), directory / "sparse_linear.pt")
    return directory


def build_tiny_cross_encoder(directory: Path, seed: int = 11) -> Path:
    """An XLM-RoBERTa sequence classifier with one output (a relevance score) and the same word-level tokenizer:
    what sentence-transformers' CrossEncoder and FlagEmbedding's FlagReranker load, like bge-reranker-v2-m3.
    Its scores are random-weight scores: they prove loading, batching, truncation and ordering, not quality."""
    import torch
    from transformers import (
        AutoTokenizer,
        XLMRobertaConfig,
        XLMRobertaForSequenceClassification,
        XLMRobertaTokenizerFast,
    )

    build_tiny_bge_m3(directory, seed)  # writes the tokenizer (and an encoder the classifier below replaces)
    # Saved as XLM-R's own tokenizer class, like bge-reranker-v2-m3's: FlagReranker builds pairs id by id
    # (`prepare_for_model`), which needs the class's special-token rules, not a bare template.
    XLMRobertaTokenizerFast(
        tokenizer_file=str(directory / "tokenizer.json"),
        bos_token="<s>",
        eos_token="</s>",
        sep_token="</s>",
        cls_token="<s>",
        unk_token="<unk>",
        pad_token="<pad>",
        mask_token="<mask>",
        model_max_length=MAX_TOKENS,
    ).save_pretrained(directory)
    tokenizer = AutoTokenizer.from_pretrained(directory)
    torch.manual_seed(seed)
    config = XLMRobertaConfig(
        vocab_size=tokenizer.vocab_size,
        hidden_size=HIDDEN,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=64,
        max_position_embeddings=MAX_TOKENS + 2,
        type_vocab_size=2,
        num_labels=1,
        pad_token_id=tokenizer.pad_token_id,
        bos_token_id=tokenizer.bos_token_id,
        eos_token_id=tokenizer.eos_token_id,
    )
    model = XLMRobertaForSequenceClassification(config)
    with torch.no_grad():  # spread the scores (random small weights give sigmoid(~0) = 0.5 for every pair)
        model.classifier.out_proj.weight.mul_(100.0)
    model.save_pretrained(directory, safe_serialization=True)
    for name in ("colbert_linear.pt", "sparse_linear.pt"):
        (directory / name).unlink()
    return directory
