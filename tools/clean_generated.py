"""Delete every generated file under paper_tables/ (all but README.md) before regenerating.

Deleting first is what lets the final ``git status`` check catch stale files that no notebook
writes any more, not just changed ones.
"""

from pathlib import Path

root = Path(__file__).resolve().parent.parent / "paper_tables"
removed = 0
for p in sorted(root.rglob("*")):
    if p.is_file() and p.name != "README.md":
        p.unlink()
        removed += 1
print(f"clean_generated: removed {removed} generated files under paper_tables/")
