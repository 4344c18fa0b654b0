/* The site's reader tools that need a script: every part works without it, as plain text.

   - The language switch keeps the reader's place: the same anchor when the other language's
     page has it (an option, a schema), else the heading at the same position.
   - The side-by-side sources: the reader's language first, the other two shown or hidden by
     the reader (remembered per reading language); a phone starts with one column.
   - The variant finder keeps the presets that fit the reader's table.
   - A table wider than its frame scrolls sideways: it says so, and takes keyboard focus so
     the arrow keys scroll it.
   The page's words come from the hook (hooks/site_tools.py), in its language: `#site-strings`. */
(() => {
  const strings = JSON.parse(document.getElementById("site-strings")?.textContent || "{}");
  const readerLanguage = document.documentElement.lang || "en";
  const PHONE = window.matchMedia("(max-width: 44.9375em)");

  /* -- Language switch -------------------------------------------------------------------- */
  const anchors = (root) => Array.from(
    root.querySelectorAll(".md-content h2[id], .md-content h3[id], .md-content h4[id]"),
    (heading) => heading.id);

  async function switchLanguage(event) {
    const link = event.target.closest("a[hreflang]");
    if (!link || !location.hash || event.defaultPrevented || event.button !== 0) return;
    event.preventDefault();
    const hash = decodeURIComponent(location.hash.slice(1));
    const target = new URL(link.href, location.href);
    target.hash = "";
    try {
      const response = await fetch(target);
      const page = new DOMParser().parseFromString(await response.text(), "text/html");
      if (page.getElementById(hash)) {
        target.hash = hash;
      } else {
        const position = anchors(document).indexOf(hash);
        const theirs = anchors(page);
        if (position >= 0 && theirs.length === anchors(document).length) target.hash = theirs[position];
      }
    } catch {
      // Opened from disk (file://) a page cannot be read: the same anchor is the best guess.
      target.hash = hash;
    }
    location.href = target.href;
  }
  document.addEventListener("click", (event) => { switchLanguage(event); });

  /* -- Side-by-side sources ----------------------------------------------------------------- */
  const grids = document.querySelectorAll(".md-typeset .grid.parallel");
  if (grids.length) {
    const languages = Array.from(grids[0].children, (column) => column.lang).filter(Boolean);
    const others = languages.filter((lang) => lang !== readerLanguage);
    const key = `thirtyone.parallel.${readerLanguage}`;
    const stored = () => {
      try { return JSON.parse(localStorage.getItem(key)); } catch { return null; }
    };
    let hidden = stored() ?? (PHONE.matches ? others : []);
    const apply = () => {
      for (const lang of languages) {
        document.documentElement.classList.toggle(`parallel-hide-${lang}`, hidden.includes(lang));
      }
      document.documentElement.style.setProperty(
        "--parallel-columns", String(languages.length - hidden.length));
    };
    const bar = document.createElement("fieldset");
    bar.className = "parallel-languages";
    const legend = document.createElement("legend");
    legend.textContent = strings.parallel_show || "Show";
    bar.append(legend);
    for (const lang of others) {
      const label = document.createElement("label");
      const box = document.createElement("input");
      box.type = "checkbox";
      box.value = lang;
      box.checked = !hidden.includes(lang);
      box.addEventListener("change", () => {
        hidden = others.filter((other) => !bar.querySelector(`input[value="${other}"]`).checked);
        try { localStorage.setItem(key, JSON.stringify(hidden)); } catch { /* private mode */ }
        apply();
      });
      label.append(box, " ", (strings.languages || {})[lang] || lang);
      label.lang = lang;
      bar.append(label);
    }
    grids[0].before(bar);
    apply();
  }

  /* -- Variant finder ----------------------------------------------------------------------- */
  const finder = document.querySelector("form.variant-finder");
  if (finder) {
    const counts = JSON.parse(finder.dataset.counts || "{}");
    const status = document.querySelector(".variant-finder-count");
    const filter = () => {
      const players = parseInt(finder.elements.players.value, 10);
      const deck = finder.elements.deck.value;
      const scoring = finder.elements.scoring.value;
      let shown = 0;
      for (const item of document.querySelectorAll(".variant-finder-list > li")) {
        const [low, high] = item.dataset.players.split("-").map(Number);
        const fits = (Number.isNaN(players) || (low <= players && players <= high))
          && (!deck || item.dataset.deck === deck)
          && (!scoring || item.dataset.scoring === scoring);
        item.hidden = !fits;
        shown += fits;
      }
      if (status) status.textContent = counts[shown] || String(shown);
    };
    finder.addEventListener("input", filter);
    finder.addEventListener("submit", (event) => event.preventDefault());
    filter();
  }

  /* -- Wide tables -------------------------------------------------------------------------- */
  const frames = () => document.querySelectorAll(".md-typeset__scrollwrap");
  const markWide = () => {
    for (const frame of frames()) {
      const wide = frame.scrollWidth > frame.clientWidth + 1;
      frame.classList.toggle("scrolls", wide);
      if (wide) {
        frame.tabIndex = 0;
        frame.setAttribute("role", "region");
        frame.setAttribute("aria-label", strings.table_scrolls || "Table, scrolls sideways");
        frame.dataset.cue = strings.table_cue || "Swipe or use the arrow keys: the table goes on";
        frame.classList.toggle("at-end",
          frame.scrollLeft + frame.clientWidth >= frame.scrollWidth - 1);
      } else {
        frame.removeAttribute("tabindex");
        frame.removeAttribute("role");
        frame.removeAttribute("aria-label");
      }
    }
  };
  document.addEventListener("scroll", (event) => {
    const frame = event.target;
    if (frame instanceof Element && frame.matches(".md-typeset__scrollwrap.scrolls")) {
      frame.classList.toggle("at-end",
        frame.scrollLeft + frame.clientWidth >= frame.scrollWidth - 1);
    }
  }, true);
  window.addEventListener("resize", markWide);
  /* The theme wraps the tables when its own script runs, after this one. */
  document.addEventListener("DOMContentLoaded", () => requestAnimationFrame(markWide));
  window.addEventListener("load", markWide);
})();
