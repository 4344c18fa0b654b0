/* The hand scorer of the preset pages (hooks/site_scorer.py): three cards picked, their
   value under the preset's rules and why, scored here by the npm package's HandTable from the
   preset's hand table, loaded once with the page: no request per hand, and none at all once
   the page is loaded. The words come in the page's language from the hook's JSON block.
   A classic script that imports the package only where a page has a scorer and is served:
   browsers load no module and fetch no file from disk (file://, the offline archive), where
   the scorer stays hidden. */
(() => {
  const percent = (lang) => new Intl.NumberFormat(lang, { style: "percent", maximumFractionDigits: 1 });
  const format = (template, params) => template.replace(/\{(\w+)\}/g, (_, name) => params[name]);

  /** The share of the table's hands each rank beats: `below[rank]` hands rank lower. */
  function beaten(table) {
    const deck = table.header.deck;
    const counts = new Map();
    for (let c = 2; c < deck.length; c++) {
      for (let b = 1; b < c; b++) {
        for (let a = 0; a < b; a++) {
          const { rank } = table.score([deck[a], deck[b], deck[c]]);
          counts.set(rank, (counts.get(rank) ?? 0) + 1);
        }
      }
    }
    const below = new Map();
    let total = 0;
    for (const rank of [...counts.keys()].sort((x, y) => x - y)) {
      below.set(rank, total);
      total += counts.get(rank);
    }
    return { below, total };
  }

  async function start(scorer, HandTable) {
    const strings = JSON.parse(scorer.querySelector("[data-scorer-strings]").textContent);
    const lang = scorer.dataset.lang;
    const response = await fetch(new URL(scorer.dataset.table, location.href));
    if (!response.ok) return;
    const table = HandTable.fromBinary(await response.arrayBuffer());
    const { below, total } = beaten(table);
    const choices = [...scorer.querySelectorAll("[data-card-choice]")];
    const result = scorer.querySelector("[data-scorer-result]");
    const numbers = new Intl.NumberFormat(lang);
    const show = () => {
      const cards = choices.map((choice) => choice.value);
      if (cards.includes("") || new Set(cards).size < 3) {
        result.textContent = strings.pick;
        delete result.dataset.points;
        return;
      }
      const value = table.score(cards);
      const points = Number.isInteger(value.points) ? numbers.format(value.points)
        : `${numbers.format(Math.trunc(value.points))}½`;
      result.dataset.points = String(value.points);
      result.dataset.category = value.category;
      result.textContent = [
        format(strings.value, { points, category: strings.categories[value.category] ?? value.category }),
        format(strings.beats, { percent: percent(lang).format(below.get(value.rank) / total),
          hands: numbers.format(total) }),
      ].join(" ");
    };
    for (const choice of choices) choice.addEventListener("change", show);
    show();
    scorer.hidden = false;
  }

  const scorers = document.querySelectorAll(".hand-scorer[data-table]");
  if (scorers.length && location.protocol !== "file:") {
    import("./thirtyone/tables.js").then(({ HandTable }) => {
      // A table that does not load leaves its scorer hidden, as without the script.
      for (const scorer of scorers) start(scorer, HandTable).catch(() => {});
    }).catch(() => {});
  }
})();
