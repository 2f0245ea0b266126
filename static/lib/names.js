// Readable names for the ids in a court view: Nobles, Houses, titles, villages, seats, steps and
// phases (their names as the court view gives them).

// "4. Purchases" for a phase id, as the court view's game names it (`game.phases`); "—" for
// none.
export function phaseName(id, game) {
  return id ? (game.phases?.[id] ?? id) : "—";
}

export class Names {
  constructor(court) {
    this.court = court;
    this.nobles = new Map();
    this.houses = new Map(court.houses.map((h) => [h.id, h]));
    for (const house of court.houses) for (const n of house.nobles) this.nobles.set(n.id, n);
    this.titles = new Map(court.titles.map((t) => [t.id, t]));
    this.villages = new Map(
      court.regions.flatMap((r) => r.villages.map((v) => [v.id, { ...v, region: r.name }])),
    );
    this.seats = new Map(court.seats.map((s) => [s.seat, s]));
  }

  noble(id) {
    return id == null ? "nobody" : (this.nobles.get(id)?.name ?? id);
  }
  house(id) {
    return id == null ? "nobody" : (this.houses.get(id)?.name ?? id);
  }
  colours(id) {
    return this.houses.get(id)?.colours ?? [];
  }
  title(id) {
    return this.titles.get(id)?.name ?? id;
  }
  village(id) {
    return this.villages.get(id)?.name ?? id;
  }
  houseOfNoble(id) {
    return this.nobles.get(id)?.house;
  }

  // "Eddard (House Stark)"; "you" is added for the viewer's own seat.
  seat(seat) {
    const info = this.seats.get(seat);
    if (!info) return `Seat ${Number(seat) + 1}`;
    const mine = seat === this.court.viewer.seat ? " — you" : "";
    return `${info.player_name} (${this.house(info.house)})${mine}`;
  }
  // A seat doing something: "Cat (House Tyrell) answers", or "you answer" for the viewer's own
  // seat (`second`: the verb for "you"; `third`: for anyone else).
  does(seat, third, second) {
    const mine = seat !== null && seat === this.court.viewer.seat;
    return mine ? `you ${second}` : `${this.seat(seat)} ${third}`;
  }
  houseOfSeat(seat) {
    return this.seats.get(seat)?.house;
  }

  phase(id) {
    return phaseName(id, this.court.game);
  }
  // The court view's step {kind, id, number, name}: "1.1.1 Marriages", "Purchases".
  step(step) {
    if (!step) return "—";
    return step.number ? `${step.number} ${step.name}` : step.name;
  }
  // An election by its title's name ("Warden of the North"), also once it is over: every
  // election's id is the id of the title it fills.
  electionName(id) {
    const election = this.court.election;
    if (election && election.id === id) return this.title(election.title);
    return this.titles.get(id)?.name ?? id;
  }
}

// The sentence with its first letter capitalised ("you propose…" opening a sentence).
export const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);
