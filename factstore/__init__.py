"""factstore: a fact store for agent memory.

It holds what is known, not merely what was said: every fact carries a verdict, verbatim
provenance and a lifecycle. ``Store`` is the one seam; everything else calls its methods.
"""

from factstore.errors import FactStoreError
from factstore.kinds import Kind, Verdict
from factstore.settings import Settings
from factstore.store import Store

__all__ = ["FactStoreError", "Kind", "Settings", "Store", "Verdict"]
__version__ = "0.1.0"
