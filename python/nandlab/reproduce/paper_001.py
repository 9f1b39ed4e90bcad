"""What seed 001 (Zhao et al., "LDPC-in-SSD", FAST'13) states, with where it stands.

Numbers only from the text; values that exist only in a figure are not here (the report
shows nandlab's beside the figure's name and says so).
"""

from __future__ import annotations

from .claims import PaperValue, above, below, point, sign, span

#: §5: the hard-decision failure probability at 10,000 P/E, from Fig. 9's RBERs and
#: Fig. 10's code.
P_HD_FAIL = 0.288

#: §2.3 / Fig. 5: the forced hard-decision failure probabilities.
FIG5_P_HD = (0.01, 0.10, 0.30)

#: Claims as (label, the paper's value (a :mod:`.claims` rule, its digits as printed),
#: where). Where the paper gives words, not a number, the rule is our reading of them,
#: said in its text.
CLAIMS: dict[str, tuple[str, PaperValue, str]] = {
    "fig5_proportional": (
        "Fig. 5: read delay per page grows in proportion to P_hd-fail (delay at 30 % / delay "
        "at 10 %, each page read's own time)",
        point("3", tolerance=0.3, why="\"proportionally\": 30 % / 10 % = 3, our reading "
              "± 10 %"),
        "§2.3, Fig. 5: \"proportionally increases as the failure rate increases\""),
    "fig5_write": (
        "Fig. 5: write response time increase at P_hd-fail = 30 % (largest over traces)",
        below(2.0, "no more than 2%"), "§2.3: \"increases no more than 2%\""),
    "fig11_range": (
        "Fig. 11: baseline read response time increase over no soft sensing (range over traces)",
        span("25", "120"), "§5.1, Fig. 11: 25 % (Postmark) … 120 % (Synthetic2)"),
    "fig12_look_ahead": (
        "Fig. 12: look-ahead read response time vs baseline (mean over traces)",
        span("-20", "0", text="\"modestly reduce\" (our reading: 0 … 20 % less)"),
        "§5.2: \"modestly reduce\""),
    "fig13_progressive": (
        "Fig. 13: progressive read response time vs baseline (mean over traces)",
        below(-20.0, "\"very effectively reduce\" (our reading: more than 20 % less)"),
        "§5.3: \"very effectively reduce\""),
    "fig14_combined": (
        "Fig. 14: look-ahead + progressive vs the better of the two alone (points, mean)",
        sign(-1, "\"further improve\" (our reading: below both)"),
        "§5.3: \"can be directly combined to further improve\""),
    "fig15_4way_vs_2way": (
        "Fig. 15: 4-way minus 2-way interleaving, read time vs baseline (points, range "
        "over traces)",
        sign(-1, "\"improve the latency reduction\" (our reading: 4-way faster on every "
             "trace)"),
        "§5.4: from 2-way to 4-way \"we can better average out the bit error rate and "
        "hence improve the latency reduction\""),
    "fig17_parallelism": (
        "Fig. 17: all techniques vs baseline, 2 channels minus 8 channels (points, range "
        "over traces)",
        span("-5", "5", text="\"insensitive\" (our reading: every trace within 5 points)"),
        "§5.4: \"insensitive to the SSD parallelism\""),
    "headline_baseline": (
        "Headline: worst-case read delay of the baseline over no soft sensing",
        span("100", "120", text="over 100% (Fig. 11: up to 120 %)"),
        "Abstract, §7: \"from over 100%\" (Fig. 11: at most 120 %)"),
    "headline_all": (
        "Headline: worst-case read delay with all techniques over no soft sensing",
        below(20.0, "below 20%"), "Abstract, §7: \"down to below 20%\""),
    "energy_look_ahead": (
        "§5.5: look-ahead flash sensing energy over the baseline's",
        point("102.9"), "§5.5: +102.9 % flash memory access power"),
    "energy_progressive": (
        "§5.5: progressive decoding energy over one decode per read",
        point("35.2"), "§5.5: +35.2 % LDPC decoding power"),
    "energy_both": (
        "§5.5: look-ahead + progressive sensing and decoding energy over hard-only reads",
        point("42.3"), "§5.5: +42.3 % sensing and decoding energy together"),
    "fig3_soft_gain": (
        "Fig. 3: RBER tolerated at FER 1e-15, six extra levels over hard decision (×)",
        point("3", tolerance=0.5, why="\"about 3×\": our reading ± 0.5"),
        "§2.2: soft decoding \"can tolerate about 3× worse raw bit error rate\""),
    "fig3_hard_vs_bch": (
        "Fig. 3: RBER tolerated at FER 1e-15, hard-decision LDPC over BCH (t = 256) (×)",
        above(1.0, "\"slightly higher\" (judged as: above 1×)"),
        "§2.2: hard LDPC \"can only tolerate slightly higher raw bit error rate than BCH\""),
    "fig10_p_sd1": (
        "Fig. 10 / §5.5: P_sd-fail(1), failures with one extra level per hard failure, "
        "over the device",
        above(0.1, "not printed: ≈ 0.21 derived from §5.5 (judged as: above half of it, 0.1)"),
        "Derived: §5.5's +35.2 % progressive decode energy at §5's P_hd-fail 28.8 % gives "
        "Σ_i Π_j P_sd-fail(j) = 0.222, so P_sd-fail(1) ≈ 0.21 (Fig. 10: \"graceful "
        "trade-off\")"),
    "sense_seven_levels": (
        "§2.2: seven-level (hard + six soft) sensing time (µs)",
        point("125"), "§2.2: \"about 125us\" to sense seven levels"),
    "soft_transfer": (
        "§2.2: transfer of the seven-level sensing results of 4 KB (µs)",
        point("80"), "§2.2: \"about 80us to transfer the seven-level soft-decision sensing "
        "results of 4KB data to the controller\""),
    "bake_recovery": (
        "§4.1 Eq. 5: bake time emulating wear-out recovery (min)",
        point("11"), "§4.1: \"11 minutes\" (A = 0.022, t_cyc = 400 days, 25 → 105 °C)"),
    "bake_retention": (
        "§4.1 Eq. 6: bake time emulating one month's retention (min)",
        point("39"), "§4.1: \"39 minutes\" (t_rt = 30 days, 40 → 105 °C)"),
}
