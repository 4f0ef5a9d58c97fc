"""Characters rule text and the files around it may not hold."""

from __future__ import annotations

import re

# characters a terminal acts on (escape sequences, bells, carriage returns): C0 controls
# but tab and line feed, DEL and C1 controls; texts are printed, so rule text may not hold them
CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
