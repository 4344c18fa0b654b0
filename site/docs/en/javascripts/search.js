/* Search that knows word endings.

   The theme's search worker turns every word of a query into a prefix ("тузы" becomes
   "тузы*"), and a prefix bypasses the language's stemmer: "тузы*" cannot find "туз", "widows*"
   cannot find "widow". Each word is sent twice: once boosted ("тузы^1"), which the worker
   leaves whole and the stemmer reduces to its stem, and once as typed, which keeps the
   prefix search for a word still being typed. The theme creates its worker after this script
   has run, so wrapping Worker here sees every query it sends (message type 2). */
(() => {
  const QUERY = 2;
  const OPERATOR = /[*~^:+"-]/;
  const stemmed = (query) => {
    const words = query.trim().split(/\s+/).filter(Boolean);
    const whole = words.filter((word) => !OPERATOR.test(word)).map((word) => `${word}^1`);
    return [...whole, ...words].join(" ");
  };
  const NativeWorker = window.Worker;
  window.Worker = class extends NativeWorker {
    postMessage(message, ...rest) {
      if (message && message.type === QUERY && typeof message.data === "string") {
        message = { ...message, data: stemmed(message.data) };
      }
      super.postMessage(message, ...rest);
    }
  };
})();
