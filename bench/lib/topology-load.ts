import { CONSISTENCY_POSITION_HEADER } from "@booking/contracts";
import { randomUUID } from "node:crypto";
import fastifyJwt from "@fastify/jwt";
import Fastify from "fastify";
import type { EventStore } from "@booking/event-store";
import { bookableHour, startBookingLoad, type BookableExpert, type LoadCall } from "../../api/test/booking-load.ts";
import { ALL_WEEK_UTC, seedCreators, seedExperts } from "./seed.ts";

// Booking traffic for API processes started elsewhere (the topology): seeded experts and
// creators with tokens signed by the APIs' JWT secret, and the product's booking lifecycle
// (book, pay, confirm or cancel; visitors listing experts) sent over HTTP to a base URL.

export type BookingParties = { experts: BookableExpert[]; creatorTokens: string[] };

/** `experts` bookable all week and `creators` who accepted the terms, written to the log, with their tokens. */
export async function seedBookingParties(
  store: EventStore,
  jwtSecret: string,
  counts: { experts: number; creators: number },
): Promise<BookingParties> {
  const at = new Date(Date.now() - 86_400_000).toISOString();
  const experts = await seedExperts(store, counts.experts, at, { schedule: ALL_WEEK_UTC });
  const creators = await seedCreators(store, counts.creators, at);
  const signer = Fastify({ logger: false });
  try {
    await signer.register(fastifyJwt, { secret: jwtSecret, sign: { algorithm: "HS256", expiresIn: 3600 } });
    await signer.ready();
    return {
      experts: experts.map((e) => ({
        ...e,
        token: signer.jwt.sign({ sub: e.expertId, role: "expert", email: `${e.expertId}@bench.example`, sid: randomUUID() }),
      })),
      creatorTokens: creators.map((c) => signer.jwt.sign({ sub: c.userId, role: "creator", email: c.email, sid: randomUUID() })),
    };
  } finally {
    await signer.close();
  }
}

/** Requests to `base` (e.g. the proxy) with fetch; a request that cannot be sent answers status 0. */
export function fetchCall(base: string): LoadCall {
  return async (method, path, o = {}) => {
    const r = await fetch(`${base}${path}`, {
      method,
      headers: {
        ...(o.body !== undefined && { "content-type": "application/json" }),
        ...(o.token && { authorization: `Bearer ${o.token}` }),
        ...(o.position && { [CONSISTENCY_POSITION_HEADER]: o.position }),
      },
      ...(o.body !== undefined && { body: JSON.stringify(o.body) }),
    });
    return { status: r.status, body: await r.text(), position: r.headers.get(CONSISTENCY_POSITION_HEADER) };
  };
}

/** Creators booking each expert's hours in turn (each hour once) and visitors listing experts, until stopped. */
export function startTopologyLoad(call: LoadCall, parties: BookingParties, counts: { bookers: number; listers: number }) {
  const firstHour = Date.now() + 2 * 3_600_000;
  const { experts, creatorTokens } = parties;
  return startBookingLoad(call, {
    ...counts,
    slots: (k) => ({ expert: experts[k % experts.length]!, scheduledTime: bookableHour(firstHour, Math.floor(k / experts.length)) }),
    creatorOf: (k) => ({ token: creatorTokens[k % creatorTokens.length]! }),
  });
}
