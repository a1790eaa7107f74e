//! "How to read the results": each method's summary, assumptions,
//! units and what it leaves out.

use crate::i18n::Interpretation;
use vramfit_core::methods::MethodId;

pub(super) fn interpretation(method: MethodId) -> Interpretation {
    match method {
        MethodId::Quick => Interpretation {
            summary: "Geheugen om het model op één GPU te bedienen: gewichten + KV-cache + een percentage overhead (naar de calculator ‘Voordat je een model downloadt of een GPU huurt’).",
            assumptions: &[
                "Gewichten = parameters × bits per gewicht / 8: ideale opslag, zonder kwantisatiemetadata buiten wat het gekozen formaat bevat.",
                "Dichte KV-cache: 2 × lagen × KV-heads × headdimensie × context × sequenties × bytes; elke laag telt als volledige attention.",
                "De overhead is een vast percentage van gewichten + KV (10–20 % is redelijk): activaties, CUDA-context en buffers.",
                "Het past als het totaal het nominale GPU-geheugen niet overschrijdt.",
            ],
            units: "Decimale GB (10⁹ bytes), zoals GPU's worden verkocht. De geëxporteerde JSON bevat de exacte bytes.",
            leaves_out: &[
                "Training (gebruik lesson of allocator).",
                "Glijdende vensters en latente attention: de cache telt volledig.",
                "Kernels, de allocator en gemeten pieken; meerdere GPU's.",
            ],
        },
        MethodId::Lesson => Interpretation {
            summary: "Een schatting voor één apparaat volgens de les van de GPU-geheugenschatter: gewichten en KV-cache, of 18 bytes per parameter bij training, plus je reserves en een marge.",
            assumptions: &[
                "Inferentie gebruikt ideale opslag van gewichten en een dichte KV-cache.",
                "Volledige training gebruikt 18 bytes/parameter: 2 werkgewicht + 4 mastergewicht + 4 gradiënt + 8 Adam-momenten (AdamW met gemengde precisie), zonder KV-cache.",
                "De runtime- en activatiereserve tellen in beide modi; de marge vermenigvuldigt het subtotaal met reserves.",
            ],
            units: "GiB = 2³⁰ bytes. Toestanden = parameters × 18 bytes. KV = 2 × lagen × KV-heads × dimensie × sequentie × batch × bytes.",
            leaves_out: &[
                "Kwantisatiemetadata, kernels, echte activaties en allocators: de reserves benaderen ze.",
                "LoRA, sharding, offload en gemeten pieken.",
                "De 18 bytes zijn één indeling van datatypes, geen constante van elk framework.",
            ],
        },
        MethodId::Allocator => Interpretation {
            summary: "De piek van PyTorch (torch.cuda.max_memory_allocated) voor één stap van een dicht model onder transformers, afgeleid uit de levende tensoren (vramcalc 0.1.0).",
            assumptions: &[
                "Totaal = gewichten + KV-cache + gradiënten + optimizer + max(activaties + autocast-kopieën, werkbuffer van de stap).",
                "Het past als totaal + 0,75 GB overhead ≤ 97 % van het nominale geheugen.",
                "Een stabiele stap: de optimizertoestanden bestaan al; LoRA op q/k/v/o_proj.",
            ],
            units: "Exacte bytes; getoond in GB (10⁹) of GiB (2³⁰) volgens de schakelaar.",
            leaves_out: &[
                "Mixture of experts, latente attention, lineaire lagen en gekwantiseerde checkpoints.",
                "Fragmentatie van de allocator (memory_reserved) en geheugen buiten PyTorch, afgezien van de vaste overhead.",
                "Andere serveerframeworks (vLLM, llama.cpp).",
            ],
        },
        MethodId::Range => Interpretation {
            summary: "Een lage en een hoge schatting per GPU om een echt model te bedienen of te fine-tunen (naar de calculator voor VRAM en modelgrootte).",
            assumptions: &[
                "Bedienen: laag = gewichten/n + KV-cache/n + 1 GB; hoog = 1,2 × gewichten/n + KV-cache/n + 1 GB (de 20 % dekt activaties, buffers en fragmentatie, volgens de vuistregel van EleutherAI).",
                "8- en 4-bit formaten houden de embeddings en de output-head op 16 bits; de cache telt elke laag naar haar soort (volledig, glijdend venster, MLA, lineair).",
                "Fine-tunen: 16 bytes/parameter (volledig) of LoRA/QLoRA-adapters van rang r op 16 bytes, activaties met volledige gradient checkpointing en FP32-logits.",
                "Gewichten en cache worden gelijk verdeeld over hoogstens 8 GPU's van één server; de runtime telt op elke GPU.",
            ],
            units: "Decimale GB (10⁹ bytes), voor de zwaarst belaste GPU. Oordeel van de bron: past ruim als de hoge schatting ≤ 90 % van het geheugen gebruikt; krap als de lage past.",
            leaves_out: &[
                "Meer dan 8 GPU's of meerdere machines.",
                "Snelheid en wachtrijen van gebruikers.",
                "Gemeten pieken en het gedrag van elke engine.",
            ],
        },
        MethodId::Planner => Interpretation {
            summary: "Een planningsbudget per GPU (naar de geheugenmethodologie v0.3) om te bedienen of te trainen met tensor- en pipelineparallellisme, replica's en gelijktijdige sequenties.",
            assumptions: &[
                "Totaal = gewichten + adapters + KV-cache + activaties + logits + attentionscores + gradiënten + optimizer + mastergewichten + communicatie + offload-staging, plus een marge (15 %) en de enginecontext (1 GiB per GPU).",
                "Bruikbaar = nominaal geheugen × (1 − 10 % reserve).",
                "Gepagineerde KV-cache in blokken van 16 tokens, met gedeelde prefix en vensters; kwantisatiemetadata van 5 %.",
                "De snelheid is een roofline van bandbreedte en rekenkracht, van conservatief (35 % / 20 %) tot gunstig (70 % / 45 %).",
            ],
            units: "Decimale GB (10⁹ bytes) voor de zwaarst belaste GPU; snelheid in tokens/s per gebruiker en seconden prefill.",
            leaves_out: &[
                "Snelheid bij training, met MoE, MLA, glijdende vensters, TP/PP > 1 of offload.",
                "Echte metingen: het is een planningscijfer.",
                "Kernels en fragmentatie buiten de marge en de reserve.",
            ],
        },
        MethodId::Vllm => crate::i18n::engine_texts(crate::i18n::Lang::Nl)
            .map_or(crate::i18n::Interpretation::NOT_LOADED, |t| t.vllm_interpretation),
        MethodId::Llamacpp => crate::i18n::engine_texts(crate::i18n::Lang::Nl)
            .map_or(crate::i18n::Interpretation::NOT_LOADED, |t| t.llamacpp_interpretation),
    }
}
