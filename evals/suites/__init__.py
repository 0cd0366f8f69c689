"""Every eval suite; importing this package registers them all."""

import evals.suites.conflict_precision  # noqa: F401  (registers conflict-precision)
import evals.suites.entity_resolution  # noqa: F401  (registers entity-resolution)
import evals.suites.extraction_yield  # noqa: F401  (registers extraction-yield)
import evals.suites.locomo  # noqa: F401  (registers locomo-recall)
import evals.suites.locomo_retrieval  # noqa: F401  (registers locomo-retrieval)
import evals.suites.negation  # noqa: F401  (registers negation-identity)
import evals.suites.relation_extraction  # noqa: F401  (registers relation-extraction)
import evals.suites.shred  # noqa: F401  (registers shred)
import evals.suites.subject_conflicts  # noqa: F401  (registers subject-conflicts)
import evals.suites.support_counting  # noqa: F401  (registers support-counting)
import evals.suites.time_questions  # noqa: F401  (registers time-questions)
