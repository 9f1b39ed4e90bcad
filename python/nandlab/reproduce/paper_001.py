"""What seed 001 (Zhao et al., "LDPC-in-SSD", FAST'13) states, with where it stands.

Numbers only from the text; values that exist only in a figure are not here (the report
shows nandlab's beside the figure's name and says so).
"""

from __future__ import annotations

#: §5: the hard-decision failure probability at 10,000 P/E, from Fig. 9's RBERs and
#: Fig. 10's code.
P_HD_FAIL = 0.288

#: §2.3 / Fig. 5: the forced hard-decision failure probabilities.
FIG5_P_HD = (0.01, 0.10, 0.30)

#: Claims as (label, low, high, where) in % (or a ratio where the label says so).
CLAIMS = {
    "fig5_proportional": (
        "Fig. 5: read delay grows in proportion to P_hd-fail (delay at 30 % / delay at 10 %)",
        3.0, 3.0, "§2.3, Fig. 5: \"proportionally increases as the failure rate increases\""),
    "fig5_write": (
        "Fig. 5: write response time increase at P_hd-fail = 30 % (largest over traces)",
        0.0, 2.0, "§2.3: \"increases no more than 2%\""),
    "fig11_range": (
        "Fig. 11: baseline read response time increase over no soft sensing (range over traces)",
        25.0, 120.0, "§5.1, Fig. 11: 25 % (Postmark) … 120 % (Synthetic2)"),
    "fig12_look_ahead": (
        "Fig. 12: look-ahead read response time vs baseline (mean over traces)",
        -20.0, 0.0, "§5.2: \"modestly reduce\" (our reading: 0 … 20 % less)"),
    "fig13_progressive": (
        "Fig. 13: progressive read response time vs baseline (mean over traces)",
        -100.0, -20.0, "§5.3: \"very effectively reduce\" (our reading: more than 20 % less)"),
    "fig17_parallelism": (
        "Fig. 17: all techniques vs baseline, 2 channels minus 8 channels (points, mean)",
        -5.0, 5.0, "§5.4: \"insensitive to the SSD parallelism\" (our reading: within 5 points)"),
    "headline_baseline": (
        "Headline: worst-case read delay of the baseline over no soft sensing",
        100.0, 120.0, "Abstract, §7: \"from over 100%\" (Fig. 11: at most 120 %)"),
    "headline_all": (
        "Headline: worst-case read delay with all techniques over no soft sensing",
        0.0, 20.0, "Abstract, §7: \"down to below 20%\""),
    "energy_look_ahead": (
        "§5.5: look-ahead flash sensing energy over the baseline's",
        102.9, 102.9, "§5.5: +102.9 % flash memory access power"),
    "energy_progressive": (
        "§5.5: progressive decoding energy over one decode per read",
        35.2, 35.2, "§5.5: +35.2 % LDPC decoding power"),
    "energy_both": (
        "§5.5: look-ahead + progressive sensing and decoding energy over hard-only reads",
        42.3, 42.3, "§5.5: +42.3 % sensing and decoding energy together"),
}
