"""Edge-disjoint spanning trees: packings, the paper's star-product constructions, and the verifier."""

from .packing import Packing, generic_packing, max_edsts
from .trees import EDSTSet, Tree
from .verify import VerifyReport, check_edsts, verify_edsts

__all__ = ["EDSTSet", "Packing", "Tree", "VerifyReport", "check_edsts", "generic_packing", "max_edsts",
           "verify_edsts"]
