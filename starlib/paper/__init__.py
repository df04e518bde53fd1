"""What exists only to regenerate the paper's tables and figures: one module per table or study, and the writers.

Nothing in the core library imports this package; it uses only the public names of the core
(:mod:`starlib.edst`, :mod:`starlib.networks`, :mod:`starlib.registry`, ...).

==========================  ===========================================================================================
module                      contents
==========================  ===========================================================================================
:mod:`.catalog`             the paper's networks over its parameter ranges, measured beside their closed forms
:mod:`.formulas`            closed forms of n, m and the degrees of every family (Property II-B.3, Table V)
:mod:`.table1`              Table I: every construction on named and random instances, checked
:mod:`.table4`              Table IV: Slim Fly, Bundlefly, PolarStar; the "Maybe" row settled
:mod:`.table5`              Table V and Appendix B: factor closed forms proved symbolically and measured
:mod:`.bound_checks`        Section IV and Appendix A: the upper bounds checked
:mod:`.tree_depths`         depths of the constructions beside the depth theorems (Section V, Section VI)
:mod:`.random_products`     random star products for the Table I checks
:mod:`.chimera_view`        Appendix C: Chimera as a star product
:mod:`.shallow_study`       notebook 13: count and depth of every method's EDSTs per network, the lower bound
:mod:`.shallow_record`      notebook 13's shallow families, computed once and committed
:mod:`.depth_certificates`  notebook 13's depth certificates: the least depth of ``k`` EDSTs, proved or bracketed
:mod:`.peers`               notebook 14: every network at a router radix budget and what its EDSTs give per port
:mod:`.sweep_study`         the ER_q sweep record read for the paper: a summary per family, the time on N workers
:mod:`.scaling`             fits of time and memory against links (benchmark records)
:mod:`.naive_transfer`      Figure 2 (Section III): Cartesian EDSTs carried naively into a star product
:mod:`.tables`              deterministic CSV / Markdown / LaTeX writers
:mod:`.compact`             the compact form of a long table: one line per group, the other columns as ranges
:mod:`.latex`               the LaTeX of the tables' text: captions with ``$...$``, formulas written in ASCII
:mod:`.table_notes`         every table's caption, column glossary (meaning, unit, decimals) and LaTeX layout
:mod:`.display`             tables shown in a notebook: declared headers and units, formulas typeset, 30 rows and a link
:mod:`.figures`             figures at print size (one or two columns), saved byte-stably and shown in the notebook
:mod:`.drawing`             drawings of networks and star products (positions rounded: the same bytes on any CPU)
:mod:`.tree_figures`        drawings of EDSTs
:mod:`.depth_figures`,      the figures of notebooks 04, 06, 08, 09, 10, 11, 13 and 14, and of the ER_q sweep
:mod:`.allreduce_figures`,
:mod:`.netdesign_figures`,
:mod:`.cayley_figures`,
:mod:`.scaling_figures`,
:mod:`.shallow_figures`,
:mod:`.peers_figures`,
:mod:`.sweep_figures`
:mod:`.paths`               the notebooks' relative paths, resolved against ``notebooks/``
==========================  ===========================================================================================
"""
