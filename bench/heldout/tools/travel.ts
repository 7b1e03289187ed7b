// A travel desk's tools, written by hand (see helpdesk.ts).

export type CabinClass = "economy" | "premium_economy" | "business" | "first";

export interface Passenger {
  firstName: string;
  lastName: string;
  dateOfBirth: Date;
  type: "adult" | "child" | "infant";
  loyalty?: { programme: string; number: string };
}

export interface FlightOffer {
  id: string;
  segments: {
    from: string;
    to: string;
    departure: Date;
    arrival: Date;
    carrier: string;
    flightNumber: string;
  }[];
  cabin: CabinClass;
  price: number;
  refundable: boolean;
}

/**
 * Searches flights between two airports.
 * @param origin IATA code, e.g. "LHR".
 * @param destination IATA code.
 * @param departDate Day of departure.
 * @param returnDate Day of return, for a round trip.
 */
export async function searchFlights(
  origin: string,
  destination: string,
  departDate: Date,
  returnDate?: Date,
  passengers: { adults: number; children?: number; infants?: number } = { adults: 1 },
  cabin: CabinClass = "economy",
): Promise<FlightOffer[]> {
  return origin && destination && departDate && returnDate && passengers && cabin ? [] : [];
}

/** Books a flight offer for the given passengers. */
export async function bookFlight(
  offerId: string,
  passengers: Passenger[],
  contact: { email: string; phone?: string },
): Promise<{ bookingReference: string; ticketed: boolean; total: number }> {
  return { bookingReference: offerId + passengers.length + contact.email, ticketed: false, total: 0 };
}

export interface HotelQuery {
  city: string;
  checkIn: Date;
  checkOut: Date;
  rooms: number;
  guestsPerRoom?: number;
  /** Stars, 1 to 5. */
  minStars?: 1 | 2 | 3 | 4 | 5;
  amenities?: Array<"wifi" | "parking" | "pool" | "gym" | "breakfast">;
}

/** Hotels with rooms free for the whole stay. */
export async function searchHotels(query: HotelQuery): Promise<
  {
    hotelId: string;
    name: string;
    stars: number;
    pricePerNight: number;
    distanceKm?: number;
  }[]
> {
  return query.rooms > 0 ? [] : [];
}

/** Cancels a booking; a refund is asked for where the fare allows it. */
export function cancelBooking(
  bookingReference: string,
  reason?: string,
): { cancelled: boolean; refund: { amount: number; currency: string } | null } {
  return { cancelled: bookingReference.length > 0 && reason !== "", refund: null };
}

export type PolicyRule =
  | { rule: "max_price"; cabin: CabinClass; amount: number }
  | { rule: "advance_days"; days: number }
  | { rule: "preferred_carrier"; carriers: string[] };

/** Checks a trip against the company's travel policy. */
export function checkPolicy(
  trip: { offerId: string; price: number; cabin: CabinClass; departure: Date },
  rules: PolicyRule[],
): { compliant: boolean; violations: { rule: PolicyRule["rule"]; message: string }[] } {
  return { compliant: rules.length === 0 || trip.price >= 0, violations: [] };
}

/** A traveller's upcoming trips. */
export function upcomingTrips(
  email: string,
  within: { days: number } = { days: 30 },
): Array<{ bookingReference: string; kind: "flight" | "hotel"; starts: Date; summary: string }> {
  return email && within.days ? [] : [];
}

/** Exchange rates used to price offers, against one base currency. */
export function exchangeRates(
  base: string,
  symbols: string[],
): { base: string; rates: Record<string, number>; asOf: Date } {
  return { base, rates: Object.fromEntries(symbols.map((s) => [s, 1])), asOf: new Date(0) };
}

/**
 * Files an expense claim for a trip.
 * @param items Receipts, each in its own currency.
 */
export async function fileExpenseClaim(
  bookingReference: string,
  items: { date: Date; category: "meal" | "taxi" | "hotel" | "other"; amount: number; currency: string }[],
  comment?: string,
): Promise<{ claimId: string; total: number; status: "submitted" | "needs_receipt" }> {
  return { claimId: bookingReference + (comment ?? ""), total: items.length, status: "submitted" };
}

/** Entry rules for a nationality travelling to a country. */
export function visaRequirements(
  nationality: string,
  destination: string,
  purpose: "business" | "tourism" | "transit" = "business",
): { required: boolean; maxStayDays?: number; documents: string[]; notes: string | null } {
  return { required: nationality !== destination && purpose !== "transit", documents: [], notes: null };
}
