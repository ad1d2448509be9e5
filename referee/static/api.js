// Talking to the referee: messages for the viewer and changes guarded by the PIN.

const $ = (id) => document.getElementById(id);

export function say(text, level = "info") {
  const box = $("message");
  box.textContent = text;
  box.className = `message ${level}`;
  box.hidden = false;
  clearTimeout(say.timer);
  say.timer = setTimeout(() => { box.hidden = true; }, level === "error" ? 8000 : 4000);
}

function askPin(why) {
  const dialog = $("pin-dialog");
  $("pin-why").textContent = why;
  $("pin-input").value = "";
  return new Promise((resolve) => {
    const done = (value) => { dialog.close(); resolve(value); };
    $("pin-form").onsubmit = (event) => { event.preventDefault(); done($("pin-input").value.trim() || null); };
    $("pin-cancel").onclick = () => done(null);
    dialog.showModal();
    $("pin-input").focus();
  });
}

export async function change(url, body) {
  for (let attempt = 0; attempt < 3; attempt++) {
    const pin = sessionStorage.getItem("bgref-pin") || "";
    let reply;
    try {
      reply = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json", "X-PIN": pin }, body: JSON.stringify(body) });
    } catch (err) {
      say("the referee cannot be reached", "error");
      return null;
    }
    const data = await reply.json().catch(() => ({ error: `the referee answered ${reply.status}` }));
    if (reply.ok) return data;
    if (reply.status === 401 || reply.status === 403) {
      sessionStorage.removeItem("bgref-pin");
      const entered = await askPin(reply.status === 403 ? "Wrong PIN. Try again:" : data.error);
      if (!entered) { say("nothing was changed: no PIN", "error"); return null; }
      sessionStorage.setItem("bgref-pin", entered);
      continue;
    }
    say(data.error || `the referee answered ${reply.status}`, "error");
    return null;
  }
  say("nothing was changed: wrong PIN", "error");
  return null;
}

