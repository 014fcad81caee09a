"""The questions the server answers, as the core lists them (``hwfit questions --json``,
``GET /questions``): each one's name in Python, its route, and whether it runs on the server's own
devices when the request names no hardware. A test compares this table with the server's.
"""

from typing import List, NamedTuple, Tuple


class Question(NamedTuple):
    """One question: its one name (the CLI's), its Python name, its route."""

    name: str
    python: str
    method: str
    path: str
    targeted: bool
    aliases: Tuple[str, ...]
    summary: str


QUESTIONS: List[Question] = [
    Question('select', 'select', 'POST', '/hardware/select', True, (),
             'Select the hardware to run a model on, ranked by predicted performance'),
    Question('batch-select', 'batch_select', 'POST', '/hardware/batch', True, ('batch',),
             'Select hardware for several models'),
    Question('map', 'map', 'POST', '/hardware/map', True, (),
             'The hardware selection map: families × size categories × batch sizes × modes'),
    Question('predict', 'predict', 'POST', '/performance/predict', True, (),
             'Predict throughput, latency and memory on hardware types or devices'),
    Question('matrix', 'matrix', 'POST', '/performance/matrix', True, (),
             'Predictions for models × hardware × batch sizes × precisions'),
    Question('distributed', 'distributed', 'POST', '/training/distributed', False, (),
             'Plan distributed training: strategy, batches, memory, torchrun and DeepSpeed configs'),
    Question('analyze', 'analyze', 'POST', '/analysis/model', True, (),
             "A model's predictions and recommendations across hardware, batch sizes and modes"),
    Question('classify', 'classify', 'POST', '/models/classify', False, (),
             'Classify a model into a family and subfamily, with the analyses behind it'),
    Question('models', 'models', 'GET', '/models', False, (),
             "The model catalog (optionally one family's part)"),
    Question('model', 'model', 'POST', '/models/detail', False, (),
             "One model's architecture and derived figures"),
    Question('recommend', 'recommend', 'POST', '/models/recommend', True, (),
             'Catalog models for a pipeline task under hardware constraints'),
    Question('compatible-models', 'compatible_models', 'POST', '/models/compatible', False, ('compatible',),
             'Which of the given models run on one hardware type or device'),
    Question('resources', 'resources', 'POST', '/resources', False, (),
             'Memory, CPU cores and disk a model needs on a hardware type'),
    Question('resource-pool', 'resource_pool', 'POST', '/resources/pool', True, ('resource-config',),
             'A resource-pool configuration for several models'),
    Question('compatibility', 'compatibility', 'GET', '/compat', False, ('compat',),
             'Which hardware types run which model families and precisions'),
    Question('devices', 'devices', 'GET', '/devices', False, (),
             "The device catalog with sourced specs (optionally one hardware type's part, or a search)"),
    Question('template', 'template', 'POST', '/templates', True, (),
             'The starter-file decision for a model on its recommended hardware'),
]
