// Runs first: if the page's other scripts never ran (a file missing, JavaScript blocked
// for them), say so rather than show a page that does nothing.
window.addEventListener("load", () => {
  if (document.documentElement.dataset.state) return; // verify.js is running
  document.querySelector("#broken").hidden = false;
  document.querySelector("#load").hidden = true;
});
