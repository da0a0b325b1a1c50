// The site's root, from this file's own address (static/js/site.js): the site works from any host,
// port or folder, and every feature finds the site's files from here.
export const BASE = new URL("../../", import.meta.url).href;

export const siteUrl = (path) => new URL(path, BASE).href;
