import type { ReceivedRequest } from '../offline';

/** One HTTP request as the fake received it, kept so tests can assert what went over the wire. */
export type RecordedRequest = ReceivedRequest;
