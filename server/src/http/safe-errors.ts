// The routes that log errors import them from here; the functions live with the other errors, outside the transport.
export { describeErrorSafely, serializeErrorSafely, sqlState } from '../errors/safe-errors.js';
