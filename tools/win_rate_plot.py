"""The win-rate plot of the training examples (tools/research_train.py,
tools/research_ppo.py): a learned policy's win rate against the random and
greedy bots as training goes on, one line per bot."""

from __future__ import annotations


def win_rate_plot(curve, xlabel: str, title: str, path: str, title_size: float | None = None) -> None:
    """``curve``: (training so far, {"random": rate, "greedy": rate}) pairs."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    xs = [x for x, _ in curve]
    fig, ax = plt.subplots(figsize=(6.4, 3.8))
    for bot, style in (("random", "-o"), ("greedy", "-s")):
        ax.plot(xs, [r[bot] for _, r in curve], style, markersize=3, label=f"against the {bot} bot")
    ax.set_xlabel(xlabel)
    ax.set_ylabel("win rate of the learned policy")
    ax.set_ylim(-0.02, 1.02)
    ax.set_title(title, fontsize=title_size)
    ax.grid(alpha=0.3)
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
