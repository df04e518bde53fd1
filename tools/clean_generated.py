"""Delete every generated file under paper_tables/ (all but README.md) before regenerating.

Deleting first is what lets the final ``git status`` check catch stale files that no notebook
writes any more, not just changed ones. Run as a script (``make`` does); importing it deletes nothing.
"""

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "paper_tables"


def main() -> int:
    """Delete the generated files and say how many."""
    removed = 0
    for p in sorted(ROOT.rglob("*")):
        if p.is_file() and p.name != "README.md":
            p.unlink()
            removed += 1
    print(f"clean_generated: removed {removed} generated files under paper_tables/")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
