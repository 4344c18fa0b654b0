/* The theme's search worker, with a query that knows word endings and folds ё.

   The theme turns every word of a query into a prefix ("тузы" becomes "тузы*"); a prefix
   skips the language's stemmer, so "тузы*" never finds the stem "туз" the index holds. Here
   each word is sent once, as its stem: the theme makes it the prefix "туз*", which finds
   «туз», «тузы», «тузов», and the theme's check for a missing word compares that stem with
   the stems it matched, so a found word is never marked missing.

   Most Russian readers type е for ё: the index and the query both fold ё to е before the
   stemmer, so «семерка» and «семёрка» find the same pages. Tokens keep their positions, so
   the snippets still show the pages' own spelling.

   The hooks point the page's search (`__config.search`) at this file, written beside the
   theme's worker, whose name the build fills in (THEME_WORKER). */
const THEME_WORKER = "search.min.js";
const SETUP = 0;
const QUERY = 2;
const OPERATOR = /[*~^:+"-]/;
let language = "en";
let patched = false;

const fold = (text) => text.replace(/ё/g, "е").replace(/Ё/g, "Е");

/* Runs once lunr is loaded (the theme's worker puts it on `self`). */
function patchLunr() {
  if (patched || typeof self.lunr === "undefined") return;
  const run = self.lunr.Pipeline.prototype.run;
  self.lunr.Pipeline.prototype.run = function (tokens) {
    for (const token of tokens) token.update((text) => fold(text));
    return run.call(this, tokens);
  };
  patched = true;
}

function stem(word) {
  const lunr = self.lunr;
  const own = language === "en" ? lunr : lunr[language];
  const folded = fold(word.toLowerCase());
  if (!own || !own.stemmer) return folded;
  // A stop word goes to the theme as typed: it leaves it out of the query itself.
  if (own.stopWordFilter && !own.stopWordFilter(new lunr.Token(folded))) return word;
  const pipeline = new lunr.Pipeline();
  pipeline.add(own.trimmer, own.stemmer);
  const [stemmed] = pipeline.runString(folded);
  return stemmed || folded;
}

function stems(query) {
  return query.trim().split(/\s+/).filter(Boolean)
    .map((word) => (OPERATOR.test(word) ? fold(word) : stem(word)))
    .join(" ");
}

/* Registered before the theme's own listener, so it sees every message first. */
addEventListener("message", (event) => {
  const message = event.data;
  if (!message) return;
  if (message.type === SETUP) {
    language = (message.data.config.lang || ["en"])[0];
    patchLunr();
  } else if (message.type === QUERY && typeof message.data === "string") {
    patchLunr();
    message.data = stems(message.data);
  }
});

importScripts(THEME_WORKER);
