// The replay feature: every recorded run on a page (section.pl-replay[data-replay]), mounted by
// static/js/main.js only on a page that has one, and by „Eigener Lauf“ (live/live.js) for its result.
// The views register themselves with the core.
import { mountAll } from "./core.js";
export { play } from "./core.js";
import "./kernels.js";
import "./blocks.js";
import "./kv-cache.js";
import "./kvbytes.js";
import "./slots.js";
import "./ttft.js";
import "./prefill.js";

export const onPage = () => setTimeout(mountAll, 0);
