"""The win-rate plot of the training examples (tools/research_train.py,
tools/research_ppo.py): a learned policy's win rate against the random and
greedy bots as training goes on, one line per bot."""

from __future__ import annotations


def win_rate_plot(curve, xlabel: str, title: str, path: str, title_size: float | None = None,
                  baselines: dict | None = None, intervals: dict | None = None) -> None:
    """``curve``: (training so far, {"random": rate, "greedy": rate}) pairs;
    ``baselines``: bot -> the win rate of a uniformly random policy against
    it, drawn as a dashed line; ``intervals``: bot -> (low, high), the 95 %
    interval of the last point, drawn as an error bar."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    xs = [x for x, _ in curve]
    fig, ax = plt.subplots(figsize=(6.4, 3.8))
    for bot, style in (("random", "-o"), ("greedy", "-s")):
        line, = ax.plot(xs, [r[bot] for _, r in curve], style, markersize=3, label=f"against the {bot} bot")
        if intervals and bot in intervals:
            low, high = intervals[bot]
            last = curve[-1][1][bot]
            ax.errorbar([xs[-1]], [last], yerr=[[last - low], [high - last]], color=line.get_color(), capsize=4)
        if baselines and bot in baselines:
            ax.axhline(baselines[bot], color=line.get_color(), linestyle="--", linewidth=1,
                       label=f"random policy against the {bot} bot")
    ax.set_xlabel(xlabel)
    ax.set_ylabel("win rate of the learned policy")
    ax.set_ylim(-0.02, 1.02)
    ax.set_title(title, fontsize=title_size)
    ax.grid(alpha=0.3)
    ax.legend(loc="upper left", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
