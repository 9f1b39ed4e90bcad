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
        "Fig. 17: all techniques vs baseline, 2 channels minus 8 channels (points, range "
        "over traces)",
        -5.0, 5.0, "§5.4: \"insensitive to the SSD parallelism\" (our reading: every trace "
        "within 5 points)"),
    "fig14_combined": (
        "Fig. 14: look-ahead + progressive vs the better of the two alone (points, mean)",
        -100.0, 0.0, "§5.3: \"can be directly combined to further improve\" (our reading: "
        "below both)"),
    "fig15_4way_vs_2way": (
        "Fig. 15: 4-way minus 2-way interleaving, read time vs baseline (points, range "
        "over traces)",
        -100.0, 0.0, "§5.4: from 2-way to 4-way \"we can better average out the bit error "
        "rate and hence improve the latency reduction\" (our reading: 4-way faster on "
        "every trace)"),
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
    "fig3_soft_gain": (
        "Fig. 3: RBER tolerated at FER 1e-15, six extra levels over hard decision (×)",
        3.0, 3.0, "§2.2: soft decoding \"can tolerate about 3× worse raw bit error rate\""),
    "fig3_hard_vs_bch": (
        "Fig. 3: RBER tolerated at FER 1e-15, hard-decision LDPC over BCH (t = 256) (×)",
        1.0, 1.5, "§2.2: hard LDPC \"can only tolerate slightly higher raw bit error rate "
        "than BCH\" (our reading: 1 … 1.5×)"),
    "fig10_p_sd1": (
        "Fig. 10 / §5.5: P_sd-fail(1), failures with one extra level per hard failure, "
        "over the device",
        0.15, 0.30, "Derived: §5.5's +35.2 % progressive decode energy at §5's P_hd-fail "
        "28.8 % gives Σ_i Π_j P_sd-fail(j) = 0.222, so P_sd-fail(1) ≈ 0.21 (Fig. 10's "
        "\"graceful trade-off\"; our range 0.15 … 0.30)"),
    "bake_recovery": (
        "§4.1 Eq. 5: bake time emulating wear-out recovery (min)",
        11.0, 11.0, "§4.1: \"11 minutes\" (A = 0.022, t_cyc = 400 days, 25 → 105 °C)"),
    "bake_retention": (
        "§4.1 Eq. 6: bake time emulating one month's retention (min)",
        39.0, 39.0, "§4.1: \"39 minutes\" (t_rt = 30 days, 40 → 105 °C)"),
    "energy_both": (
        "§5.5: look-ahead + progressive sensing and decoding energy over hard-only reads",
        42.3, 42.3, "§5.5: +42.3 % sensing and decoding energy together"),
}
