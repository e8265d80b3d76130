// Generates AbstractPlay game records with AbstractPlay's own code
// (gameslib's game classes and their genRecord), for gamerec's tests.
// Bundled and run by make.sh; nothing of gameslib is kept here, only what
// this writes. Deterministic moves (a seeded generator); the site's own
// `date-generated` is the time it ran.
import { IqishiqiGame } from "GAMESLIB/src/games/iqishiqi";
import { AmazonsGame } from "GAMESLIB/src/games/amazons";
import { AtaxxGame } from "GAMESLIB/src/games/ataxx";
import * as fs from "fs";

let seed = 20261123;
function random(): number {
    // mulberry32
    seed = (seed + 0x6d2b79f5) | 0;
    let t = seed;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = <T>(xs: T[]): T => xs[Math.floor(random() * xs.length)];

const names = ["Ana", "Ben", "Chloé", "Dmitri \"D\"", "Eve", "Fu Hao", "Gaël"];
const day = (n: number) => new Date(Date.UTC(2025, 0, 1 + n, 12, 0, 0));

type Ending = "board" | "resign" | "timeout" | "draw" | "abandoned";

// One game of `make(players)`: random legal moves until the rules end it,
// or, for another ending, until a random ply where the site ends it.
function play(make: (n: number) => any, players: number, ending: Ending, i: number) {
    const g = make(players);
    const stopAt = ending === "board" ? Infinity : Math.floor(random() * 5);
    let ply = 0;
    while (!g.gameover && ply < 400) {
        if (ply >= stopAt) {
            const who = 1 + Math.floor(random() * players);
            if (ending === "resign") g.resign(who);
            else if (ending === "timeout") g.timeout(who);
            else if (ending === "draw") g.draw();
            else g.abandoned();
            break;
        }
        const moves = g.moves();
        if (moves.length === 0) break;
        g.move(pick(moves));
        ply++;
    }
    if (!g.gameover) g.abandoned();
    const seats = [...names].sort(() => random() - 0.5).slice(0, players);
    return g.genRecord({
        uid: `${g.constructor.gameinfo.uid}#${1000 + i}`,
        players: seats.map((name, k) => ({ uid: `u-${name.length}-${k}`, name })),
        dateStart: day(i),
        dateEnd: day(i + 1),
        unrated: i % 5 === 0 ? true : undefined,
        event: i % 7 === 0 ? "Iqishiqi Open" : undefined,
        round: i % 7 === 0 ? String(1 + (i % 3)) : undefined,
        pied: i % 6 === 0 ? true : undefined,
    });
}

const out = process.argv[2];
const iqishiqi = (n: number) => new IqishiqiGame(n);
const records: any[] = [];
const endings: Ending[] = ["board", "board", "board", "resign", "timeout", "draw", "abandoned"];
for (let i = 0; i < 42; i++) {
    records.push(play(iqishiqi, 2, endings[i % endings.length], i));
}
// One record per file, as the game page's download gives it.
fs.mkdirSync(`${out}/single`, { recursive: true });
records.slice(0, 7).forEach((r, i) => {
    fs.writeFileSync(`${out}/single/iqishiqi-${i + 1}.json`, JSON.stringify(r));
});
// A bulk file of one game type, as the site's exporter writes it.
fs.writeFileSync(`${out}/meta-iqishiqi.json`, JSON.stringify(records));
// Three-player Iqishiqi, which gamerec does not play.
const three = [0, 1].map((i) => play(iqishiqi, 3, "board", 100 + i));
// Every game type mixed, as ALL.json.
const others = [
    ...[0, 1, 2].map((i) => play((n) => new AmazonsGame(), 2, "resign", 200 + i)),
    ...[0, 1].map((i) => play((n) => new AtaxxGame(), 2, "board", 300 + i)),
];
const all = [others[0], records[0], others[1], three[0], records[1], others[2], others[3], records[2], three[1], others[4]];
fs.writeFileSync(`${out}/ALL.json`, JSON.stringify(all));
