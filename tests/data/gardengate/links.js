// Builds Garden Gate game links as the site does (js/PaiShoMain.js,
// showGameReplayLink: `gameType=2&host=…&guest=…&game=<notation>` and
// `&gameOptions=<JSON>` when options are set, compressed with the site's
// LZString 1.4.4 `compressToEncodedURIComponent`), one per input line of
// Garden Gate notation. Run by make.sh; only its output is kept.
const LZString = require("lz-string");
const lines = require("fs").readFileSync(0, "utf8").split("\n").filter((l) => l.trim());
const names = ["Ana", "Ben", "Chloé", "Dmitri", "Eve", "Fu Hao"];
// Options only where they keep the game legal (more tiles in reserve).
const options = [[], ["DoubleTiles"], [], [], [], []];
lines.forEach((notation, i) => {
    let q = "gameType=2&";
    q += "host=" + names[i % names.length] + "&";
    q += "guest=" + names[(i + 1) % names.length] + "&";
    q += "game=" + notation.trim();
    const o = options[i % options.length];
    if (o.length > 0) q += "&gameOptions=" + JSON.stringify(o);
    console.log("https://skudpaisho.com/?" + LZString.compressToEncodedURIComponent(q));
});
// The links the site gives that hold no game: shortened and spectate.
console.error("https://skudpaisho.com/?" + LZString.compressToEncodedURIComponent("tu=abc123x"));
console.error("https://skudpaisho.com/?" + LZString.compressToEncodedURIComponent("wg=4711"));
// Another game of the site (Skud Pai Sho, gameType 1).
console.error("https://skudpaisho.com/?" + LZString.compressToEncodedURIComponent("gameType=1&host=Ana&guest=Ben&game=0H.R3(-8,0)"));
