// thirtyone: Thirty-One hand values from portable tables, card notation, and the API client.
export { SUITS, RANKS, parseCard, parseCards, cardLabel, type Language } from "./cards.js";
export { HandTable, categoryName, crc32, type HandValue, type TableHeader, type TableJSON } from "./tables.js";
export { createClient, type ClientOptions, type Problem, type Result, type Schemas } from "./client.js";
export { followTable, readEvents, type StreamEvent, type StreamOptions, type TableUpdate } from "./stream.js";
