import { call, saveToken } from "./api.js";

const form = document.getElementById("create");
const result = document.getElementById("result");
form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const data = new FormData(form);
  try {
    const created = await call("POST", "/api/games", {
      host_name: data.get("host_name"),
      players: Number(data.get("players")),
      variants: { nights_watch: data.has("nights_watch"), title_concession: data.has("title_concession") },
    });
    saveToken(created.game_id, created.host_token);
    window.location.href = created.invite_url;
  } catch (error) {
    result.textContent = `${error.code}: ${error.message}`;
    result.className = "error";
  }
});
