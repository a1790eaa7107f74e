//! De les en haar methodes, in het Nederlands.

use crate::lesson::texts::{LessonTexts, MethodLesson};
use vramfit_core::methods::MethodId;

pub static LESSON: LessonTexts = LessonTexts {
    title: "Les: GPU-geheugen, stap voor stap",
    lead: "Splits gewichten, KV-cache en trainingstoestanden uit voordat je iets draait.",
    method_label: "Methode van de les",

    contract_title: "Leercontract: begrijpen → uitvoeren → onderzoeken",
    contract_goal: "Doel: het mechanisme uitleggen, één voorbeeld nadoen en een geval testen dat misgaat. Lezen alleen is geen beheersing: elke stap wordt afgevinkt als je hem doet, niet als je hem leest.",
    understand: "Begrijpen",
    understand_what: "Benoem de aannames, de vormen en eenheden, en een tegenvoorbeeld.",
    understand_how: "Afgevinkt zodra je je tegenvoorbeeld schrijft.",
    implement: "Uitvoeren",
    implement_what: "Doe een rekenvoorbeeld na en bekijk de grenzen.",
    implement_how: "Afgevinkt zodra je een resultaat onthult nadat je het hebt voorspeld.",
    investigate: "Onderzoeken",
    investigate_what: "Vergelijk één alternatief bij hetzelfde budget.",
    investigate_how: "Afgevinkt zodra je twee methodes of twee formaten vergelijkt.",
    done: "gedaan",
    pending: "nog te doen",

    understand_title: "Begrijpen: aannames, vormen en eenheden",
    assumptions: "Aannames",
    terms: "Termen van het huidige scenario",
    term: "Term",
    formula: "Formule",
    value: "Waarde",
    counterexample_label: "Jouw tegenvoorbeeld",
    counterexample_hint: "Een geval dat een aanname schendt: welke conclusie volgt dan niet meer?",
    counterexample_idea: "Een idee om mee te beginnen:",

    predict_title: "Voordat je draait: voorspel een grensgeval",
    predict_intro: "Zet een grensgeval klaar (of houd het huidige scenario), schrijf je voorspelling van het totaal met de eenheid, en onthul pas dan het resultaat.",
    boundary_label: "Grensgevallen met één klik",
    boundary_min_context: "Context van 1 token (de KV-cache verdwijnt bijna)",
    boundary_at_limit: "De langste context die past",
    boundary_none_fits: "Geen enkele context past op deze GPU",
    prediction_label: "Jouw voorspelling van het totaal",
    prediction_hint: "Een getal en de eenheid: GB = 10⁹ bytes, GiB = 2³⁰ bytes.",
    prediction_invalid: "Schrijf een getal van 0 of meer (bijvoorbeeld 18,8).",
    reveal: "Resultaat onthullen",
    hidden: "Het resultaat blijft verborgen tot je een voorspelling schrijft en het onthult.",
    scenario_invalid: "Het scenario heeft een probleem: los het op in de calculator om te kunnen vergelijken.",
    predicted: "Jouw voorspelling",
    observed: "Resultaat van de methode",
    discrepancy: "Verschil",
    too_high: "te hoog",
    too_low: "te laag",
    exact: "exact",
    after_reveal: "Waar komt het verschil vandaan? Zoek de term die je verkeerd inschatte, of de eenheid.",
    masked_hint: "De cijfers van het scenario verschijnen zodra je je voorspelling onthult (hierboven); tot dan staat er ‘?’.",

    isolate_title: "Tip: isoleer de aanname",
    isolate_intro: "Houd de basisinvoer vast, verander één parameter of grens, en vergelijk zowel het getal als de eenheden. Een voorbeeld dat klopt, bewijst alleen dat ene geval.",
    change: "Eén wijziging",
    total: "Totaal",
    delta: "Δ ten opzichte van de basis",
    changed_terms: "Termen die veranderen",
    baseline: "Basis: het huidige scenario",
    apply: "Toepassen",
    not_estimated: "deze methode schat dit niet",
    same_bytes: "dezelfde bytes: alleen het getal verandert",
    nothing_changes: "geen",

    investigate_title: "Onderzoek: één alternatief bij hetzelfde budget",
    investigate_intro: "Vergelijk twee methodes of twee gewichtsformaten bij dezelfde GPU en context.",
    kind_methods: "Twee methodes",
    kind_formats: "Twee gewichtsformaten",
    current: "Huidig",
    alternative: "Alternatief",
    utilization: "GPU-gebruik",
    verdict: "Oordeel",

    example_title: "Minimaal uitvoerbaar voorbeeld",
    example_intro: "Dezelfde berekening als opdracht voor vramfit (het opdrachtregelprogramma van dit project) en als JSON-invoer, dezelfde die de export bewaart.",
    cli_label: "Opdrachtregel",
    json_label: "Invoer (JSON)",
    copy: "Kopiëren",
    copied: "Gekopieerd",
    copy_failed: "Kopiëren lukte niet: selecteer de tekst en kopieer hem met de hand.",
    config_note: "Bewaar de geplakte config.json onder die naam in de map waar je de opdracht uitvoert.",
    json_note: "Voeg --json toe aan de opdracht voor het hele vramfit/1-document, gelijk aan wat ‘JSON exporteren’ opslaat.",

    transfer_title: "Test en transfer",
    transfer_intro: "Leg in het notitieboek de invoer vast, de versie van de code, het verwachte en het waargenomen resultaat. Bedenk daarna een tegenvoorbeeld dat de aanname hierboven schendt en leg uit waarom de oorspronkelijke conclusie dan niet meer volgt.",
    notes_label: "Notities",
    transfer_label: "Transfertest",
    transfer_hint: "Pas wat je leerde toe op een ander model, een andere GPU of een ander formaat: houdt de conclusie stand?",
    record: "Vastleggen in het notitieboek",
    recorded: "Vastgelegd in het notitieboek.",
    open_notebook: "Het notitieboek openen: exporteren, importeren, wissen →",
    evidence_title: "Voorspel, test en bewaar bewijs",
    evidence_intro: "Voorspel één resultaat voordat je een antwoord onthult. Leg na de oefening het verschil en een transfertest vast. Bewaard in deze browser, in elke taal.",

    interpretation_title: "Zo lees je de resultaten",
    references_title: "Bronnen van de methode",
    scope_title: "Reikwijdte van de controle",
    checked: "Gecontroleerd",
    not_checked: "Niet gecontroleerd",
    scope_note: "De reikwijdte van de wiskundige controle wordt per les vastgelegd. Ze bewijst geen empirische reproductie: noteer elke fout die je vermoedt in het notitieboek.",

    kit_title: "Referentiekit",
    kit_intro: "Alle uitgewerkte voorbeelden, met hun invoer en de verwachte uitkomsten van elke methode, in één JSON-bestand. Controleer het met het opdrachtregelprogramma:",
    kit_download: "De hele kit downloaden (.json)",
    kit_failed: "De kit kon niet worden gedownload.",

    double_context: |tokens| format!("Dubbele context: {tokens} tokens"),
    halve_bits: |bits| format!("Half zoveel bits per gewicht: {bits}"),
    unit_view: |unit| format!("Bekijken in {}", unit.label()),
    switch_method: |method| format!("Methode {}", method.id()),
    matched_budget: |gpu, context, batch| {
        format!("Gedeeld budget: een GPU van {gpu}, {context} tokens context, {batch} sequentie(s) tegelijk.")
    },
    comparison: |difference, pct| format!("Alternatief − huidig: {difference} ({pct})"),
    method: |method| match method {
        MethodId::Quick => &QUICK,
        MethodId::Lesson => &LESSON_METHOD,
        MethodId::Allocator => &ALLOCATOR,
        MethodId::Range => &RANGE,
        MethodId::Planner => &PLANNER,
        MethodId::Vllm => &VLLM,
        MethodId::Llamacpp => &LLAMACPP,
    },
};

static QUICK: MethodLesson = MethodLesson {
    interpretation: "Een schatting voor inferentie op één apparaat: ideaal opgeslagen gewichten, een dichte KV-cache met volledige attention en een percentage overhead voor activaties, de CUDA-context en buffers. Decimale GB (10⁹ bytes). Modelleert geen kwantisatiemetadata, sliding windows, latente attention, training of gemeten pieken.",
    formulas: "gewichten = P × b_w / 8 · KV per token = 2 × L × H_kv × d_head × b_kv · KV-cache = KV per token × S × B · overhead = (gewichten + cache) × o / 100 · totaal = gewichten + cache + overhead",
    assumptions: &[
        "Elke parameter neemt precies b_w bits in: geen schalen of nulpunten van kwantisatie.",
        "Elke laag bewaart één key en één value per KV-head en per token (volledige attention).",
        "De cache groeit lineair met de context S en met de sequenties B.",
        "De overhead is een vast percentage (standaard 10 %; het zaaddocument noemt 10–20 %).",
        "Het past als het totaal niet boven het nominale geheugen van de GPU uitkomt.",
    ],
    counterexample: "Een model met sliding-window-lagen (Gemma 2): voorbij het window groeit hun cache niet meer, dus een dubbele context verdubbelt de KV-cache niet langer.",
    references: &[
        ("Zaaddocument 004, ‘Voordat je een model downloadt of een GPU huurt’", "Gewichten, KV-cache en overhead; uitgewerkt voorbeeld 8B FP16 bij 8.192 tokens: ongeveer 18,8 GB op een GPU van 24 GB."),
        ("docs/methodology.md, sectie quick", "Elke term met formule, symbolen, standaardwaarden, en de drie voorbeelden als tests."),
        ("De config.json van het model", "num_hidden_layers, num_key_value_heads en de head-dimensie geven het precieze cachecijfer."),
    ],
    checked: &[
        "Eenheden: gehele bytes; GB = 10⁹ en GiB = 2³⁰, altijd benoemd.",
        "De rekenvoorbeelden van zaaddocument 004: 18,78 GB (8B FP16), 5,58 GB (8B 4-bit), 39,68 GB (70B 4-bit).",
        "De cache verdubbelt als de context of de batch verdubbelt.",
    ],
    not_checked: &[
        "Hoe elke aanbieder of elk clouddashboard geheugen telt.",
        "De werkelijke toewijzing op de GPU: daarvoor is een externe meting nodig.",
        "Wat kwantisatie met de kwaliteit doet.",
    ],
};

static LESSON_METHOD: MethodLesson = MethodLesson {
    interpretation: "Een schatting voor één apparaat. Inferentie rekent met ideaal opgeslagen gewichten en een dichte KV-cache; kwantisatiemetadata, kernels, activaties en allocators kosten extra. Volledige training rekent 18 bytes per parameter als referentie voor AdamW met gemengde precisie, plus je eigen reserves. Modelleert niet elk framework, LoRA, sharding, offload of gemeten pieken.",
    formulas: "GiB = 2³⁰ bytes. Toestanden = parameters × 18 bytes. KV = 2 × lagen × KV-heads × dimensie × sequentie × batch × bytes. De marge vermenigvuldigt het subtotaal met reserves.",
    assumptions: &[
        "De 18 bytes voor training zijn 2 bytes werkgewicht + 4 masterkopie + 4 gradiënt + 8 Adam-momenten per parameter: één indeling van datatypes, geen universele frameworkconstante of gemeten piek.",
        "Training telt de gewichten niet nog eens mee (ze zitten in de 18 bytes) en heeft geen KV-cache.",
        "Beide reserves (runtime en activaties, in GiB) tellen in beide modi.",
        "De marge vermenigvuldigt het subtotaal waar de reserves al in zitten.",
        "De capaciteit wordt in bytes vergeleken: 24 GiB = 25.769.803.776 bytes.",
    ],
    counterexample: "Trainen met een 8-bit-optimizer of met LoRA: dan gelden de 18 bytes per parameter niet meer, dus de conclusie ‘past niet voor training’ volgt niet langer.",
    references: &[
        ("Zaaddocument 000, ‘GPU-geheugenschatter’", "estimateVRAM({mode:'inference', params:7, …, capacity:24}): components.cache = 0,5 GiB."),
        ("docs/methodology.md, sectie lesson", "Het voorbeeld byte voor byte: 24.126.220.134 bytes (22,47 GiB), past in 24 GiB op 93,6 %."),
        ("AdamW met gemengde precisie", "2 + 4 + 4 + 8 = 18 bytes per getrainde parameter."),
    ],
    checked: &[
        "Teleenheden: GiB = 2³⁰ bytes tegenover GB = 10⁹.",
        "Het rekenvoorbeeld van het zaaddocument: een KV-cache van 536.870.912 bytes = 0,5 GiB.",
        "De trainingstegenhanger: 152.308.818.586 bytes (141,85 GiB).",
        "Dat training de gewichten niet dubbel telt.",
    ],
    not_checked: &[
        "Hoe de aanbieder telt.",
        "De werkelijke toewijzing op de GPU: daarvoor is een externe meting nodig.",
        "Of jouw framework deze indeling van 18 bytes gebruikt.",
    ],
};

static ALLOCATOR: MethodLesson = MethodLesson {
    interpretation: "Voorspelt de piek van de allocator van PyTorch (torch.cuda.max_memory_allocated()) voor één stap van een echt dicht model onder transformers: inferentie met cache, volledig fine-tunen of LoRA. De overhead van 0,75 GB (CUDA-context) valt buiten het totaal en telt alleen mee voor de vraag of het in 97 % van de GPU past.",
    formulas: "total = weights + kv_cache + gradients + optimizer + max(activations + autocast_cache, step_workspace) · past ⇔ total + overhead ≤ 97 % × nominale capaciteit",
    assumptions: &[
        "Dichte modellen van de families llama, mistral, qwen2, qwen3, gemma en gemma2; geen experts, MLA of gekwantiseerde checkpoints.",
        "Elke term volgt uit de tensoren die de code bij de piek in leven houdt, niet uit een fit op de metingen.",
        "amp = fp32-gewichten onder bf16-autocast; pure = gewichten getraind in hun eigen datatype.",
        "Niets anders gebruikt de GPU; 0,75 GB buiten de allocator.",
    ],
    counterexample: "Een mixture-of-experts-model of een model met latente attention (MLA): zijn levende tensoren zijn anders, dus de methode valt buiten haar bereik en haar cijfer geldt niet.",
    references: &[
        ("Zaaddocument 003, vramcalc 0.1.0", "vramcalc meta-llama/Llama-3.1-8B --train --lora 16 --precision pure --seq 4096 --gpu \"RTX 3090\": past niet; één enkele aanpassing (seq_len=512) past."),
        ("docs/allocator-derivation.md", "Elke term afgeleid uit de code van torch, transformers en peft, met verwijzingen."),
        ("Metingen van zaaddocument 003", "11 rijen van Llama-3.2-1B op een RTX A6000."),
    ],
    checked: &[
        "Eenheden: gehele bytes, getoond in decimale GB, zoals het zaaddocument.",
        "De 11 metingen van Llama-3.2-1B uit het zaaddocument, allemaal binnen ±2 %.",
        "De termen van het opdrachtregelvoorbeeld van het zaaddocument: gewichten 16,12 GB, gradiënten 0,05, optimizer 0,11, werkbuffer 0,05.",
    ],
    not_checked: &[
        "Andere modellen, kaarten en driverversies: de overhead kan een paar honderd MB verschillen.",
        "Hoe de aanbieder telt, en geheugen buiten PyTorch.",
        "Extra conversies van HF Trainer of Accelerate.",
    ],
};

static RANGE: MethodLesson = MethodLesson {
    interpretation: "Een lage en een hoge schatting per GPU, om een echt model te serveren of te fine-tunen, in decimale GB. Het getoonde totaal is de hoge kant (de voorzichtige). Het past ruim als de hoge schatting hoogstens 90 % van één GPU gebruikt; krap als de lage schatting past.",
    formulas: "serveren: laag = gewichten + KV-cache + 1 GB; hoog = 1,2 × gewichten + KV-cache + 1 GB · fine-tunen: laag = toestanden + activaties + 1 GB; hoog = 1,2 × (toestanden + activaties) + 1 GB",
    assumptions: &[
        "De cache volgt de echte lagen van het model: sliding-window-, latente en lineaire lagen.",
        "1 GB runtime per GPU; de 20 % dekt activaties, buffers en fragmentatie (vuistregel van EleutherAI).",
        "Gewichten en cache worden gelijk verdeeld over hoogstens 8 GPU's in één server.",
        "Volledig fine-tunen op 16 bytes per parameter; LoRA en QLoRA met adapters van rank 16.",
    ],
    counterexample: "Een engine die vooraf 92 % van de GPU reserveert (vLLM): het geheugen dat het model ziet is niet het nominale, dus ‘past ruim’ volgt misschien niet.",
    references: &[
        ("Zaaddocument 001, ‘Calculator voor VRAM en modelgrootte’", "Formules voor gewichten, KV-cache, bereiken en de regel van 90 %."),
        ("EleutherAI, Transformer Math 101", "≤ 20 % overhead bij inferentie; het geheugen van AdamW."),
        ("Rajbhandari e.a., ZeRO", "16 bytes per parameter voor Adam met gemengde precisie."),
    ],
    checked: &["Eenheden: decimale GB per GPU.", "De gedocumenteerde voorbeelden van de methode in docs/methods/range.md."],
    not_checked: &["Hoe de aanbieder telt.", "De werkelijke toewijzing op de GPU."],
};

static PLANNER: MethodLesson = MethodLesson {
    interpretation: "Een planningsbudget per GPU om één model te serveren of te trainen over tensor- en pipelineparallellisme, replica's en gebruikers, met een indicatieve snelheid. Het totaal geldt voor de zwaarst belaste GPU, en wordt vergeleken met het nominale geheugen min 10 % reserve. Decimale GB.",
    formulas: "totaal = gewichten + adapters + KV-cache + activaties + logits + attentionscores + gradiënten + optimizer + mastergewichten + communicatie + offloadbuffer + marge (15 %) + enginecontext (1 GiB) · bruikbaar = nominaal × (1 − 10 %)",
    assumptions: &[
        "Gekwantiseerde gewichten dragen 5 % metadata; embeddings en output-head (U) blijven in BF16.",
        "De KV-cache is gepagineerd in blokken van 16 tokens; een gedeeld prefix wordt één keer bewaard, windows begrenzen hun lagen, MLA bewaart één latent per token.",
        "Gebruikers worden verdeeld over replica's; per replica decodeert de batch tegelijk en wacht de rest in de rij.",
        "Training is AdamW: 16 bytes per getrainde parameter met een FP32-masterkopie.",
        "De snelheid is een roofline van bandbreedte en rekenkracht, van voorzichtig (35 % / 20 %) tot gunstig (70 % / 45 %).",
    ],
    counterexample: "Een engine die geheugen voor CUDA-graphs of een grotere prefillbuffer reserveert dan het budget van 2.048 tokens: dan is ‘past’ bij een volle rij niet meer zeker.",
    references: &[
        ("Zaaddocument 002, ‘Metodología de memoria v0.3’", "Elke term, de standaardwaarden (K = 20, marge 15 %, reserve 10 %, blokken van 16 tokens) en de snelheid als roofline."),
        ("docs/methods/planner.md", "De symbolen en de uitgewerkte voorbeelden: GQA, MLA onder TP, residentie, prefix, blokken."),
        ("Kwon e.a., PagedAttention (vLLM)", "Een KV-cache in blokken vaste grootte, gedeeld tussen sequenties."),
    ],
    checked: &[
        "Eenheden: decimale GB per GPU, de reserve apart van de marge.",
        "De voorbeelden van het zaaddocument als tests: GQA 8B bij 8.192 tokens, MLA onder TP 2, 100 gebruikers over 8 replica's.",
        "Dat de replica's, TP en PP het GPU-aantal delen.",
    ],
    not_checked: &[
        "Echte metingen: het is een planningscijfer.",
        "Kernels en fragmentatie boven de marge en de reserve.",
        "De snelheid van een echte engine.",
    ],
};

static VLLM: MethodLesson = MethodLesson {
    interpretation: "Wat vLLM zelf meldt als `vllm serve` opstart: de gewichten zoals geladen, de piek van de profileringsrun, het geheugen buiten PyTorch en de KV-cache die het maakt van wat er over is van totaal × gpu_memory_utilization, in tokens en in verzoeken met de volle context. De ring zet de verzoeken van het scenario tegen dat gevraagde geheugen. Binaire GiB, per GPU.",
    formulas: "gevraagd = ⌈M × u⌉ · KV-geheugen = gevraagd − (gewichten + piek + buiten torch) · blokken = ⌊KV-geheugen / pagina⌋ · tokens = blokken × blokgrootte · gelijktijdigheid = blokken / blokken per verzoek · nodig = gewichten + piek + buiten torch + B × KV(L)",
    assumptions: &[
        "Het GPU-totaal is wat CUDA meldt (79,19 GiB voor een H100 80GB), uit de catalogus waar die het heeft.",
        "De standaardwaarden van vLLM voor de GPU: 8.192 tokens per batch en 1.024 sequenties op GPU's van 70 GiB of meer (geen A100), anders 2.048 en 256.",
        "Geheugen buiten torch en CUDA-graphs zijn constanten gemeten op een H100, niet afgeleid.",
    ],
    counterexample: "Een hybride met Mamba of lineaire attention: vLLM deelt de toestand in pagina's in die deze methode niet afleidt, dus weigert ze het model.",
    references: &[
        ("vLLM `vllm/v1/worker/gpu_worker.py`, `determine_available_memory`", "het gevraagde geheugen min gewichten, piek en geheugen buiten torch is de KV-cache."),
        ("vLLM `vllm/v1/core/kv_cache_utils.py`", "Pagina's per laag, KV-cachegroepen, blokken, tokens, gelijktijdigheid en de opstartfout."),
        ("docs/methods/vllm.md", "Elke term, met de 47 opstartlogs waaraan ze getoetst is."),
    ],
    checked: &[
        "47 echte opstartlogs van vLLM 0.19 op een H100: gewichten binnen 1 %, KV-geheugen binnen 0,21 GiB, KV-tokens binnen 0,34 %.",
        "De fout die vLLM afdrukt als één verzoek van --max-model-len niet past.",
    ],
    not_checked: &["Andere GPU's dan de H100 voor geheugen buiten torch en CUDA-graphs.", "ROCm, speculatieve decodering, LoRA."],
};

static LLAMACPP: MethodLesson = MethodLesson {
    interpretation: "Het GGUF-bestand dat de tools van llama.cpp voor het model zouden schrijven (een type per tensor, exact tot op de byte), de K- en V-cache van de context, de reken- en uitvoerbuffers, en hoe -ngl ze over de GPU en het hostgeheugen verdeelt. De ring is de GPU, min de 1 GiB die llama.cpp vrijhoudt. Binaire GiB.",
    formulas: "grootte = Σ rij(t_i, ne0) × ne1 × ne2 · K = Σ_lagen rij(t_k, H_kv × d) × n_ctx · V idem met t_v · uitvoer = 4 × V × slots · GPU = gewichten + K + V + rekenen van de lagen op de GPU",
    assumptions: &[
        "Het recept van llama-quantize voor het bestandstype (Q4_K_M houdt attn_v en ffn_down deels in Q6_K).",
        "n_ctx is de context naar boven afgerond op 256 cellen; flash attention aan (de automatische keuze van llama.cpp).",
        "Met -ngl op automatisch is de ring alle lagen op de GPU, en geeft het paneel de verdeling die llama.cpp zou kiezen.",
    ],
    counterexample: "Een lange context met een kleine GPU en -ngl op automatisch: llama.cpp start toch, met minder lagen op de GPU, en de snelheid daalt met elke laag die op de host blijft.",
    references: &[
        ("llama.cpp `src/llama-quant.cpp`, `llama_tensor_get_type`", "Het type van elke tensor voor een bestandstype."),
        ("llama.cpp `src/llama-kv-cache.cpp`, `src/llama-context.cpp`", "K- en V-cache per laag, afronding van de context, uitvoerbuffer."),
        ("docs/methods/llamacpp.md", "Elke term, de verdeelregel en wat benaderd is."),
    ],
    checked: &[
        "De groottetabel van llama.cpp zelf voor Llama-3.1-8B in negen types, binnen 0,11 %, en drie regels van llama-bench.",
        "De formule van de KV-cache tot op de byte.",
    ],
    not_checked: &["Rekenbuffers: een benadering van de grafallocator van ggml.", "Meerdere GPU's, multimodale projectoren."],
};
