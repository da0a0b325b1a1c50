"""How many tokens a vocabulary holds, in the one phrase every page uses for it: large language models
beside the site's own model. The site's number is its tokenizer's (model/weights/tokenizer.json, which
the page's zip carries as data): the 256 bytes and one token per merge.
"""

from __future__ import annotations

from . import fmt

# GPT-2 has 50 257 tokens, Llama 2 32 000, Llama 3 128 256, GPT-4o's tokenizer (o200k) about 200 000.
LARGE = (30_000, 200_000)


def site_size() -> int:
    from .site_tokenizer import TOKENIZER  # read when a page first names the number, not with the kit
    return 256 + len(TOKENIZER.merges)


def sizes() -> str:
    # both ends are rounded (o200k holds a few more than 200 000)
    return (f"große Sprachmodelle: {fmt.APPROX}{fmt.de(LARGE[0])} bis {fmt.APPROX}{fmt.de(LARGE[1])} Tokens, "
            f"das Modell dieser Website: {fmt.de(site_size())}")
