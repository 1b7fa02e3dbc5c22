// A classic script, so that it runs where the page's ES modules cannot: a page opened from
// disk (file://), whose modules the browser refuses to load. Then it says what to do.
window.addEventListener("load", () => {
  if (document.documentElement.dataset.state) return; // verify.js is running
  const note = document.querySelector("#broken");
  note.hidden = false;
  if (location.protocol === "file:") {
    note.querySelector(".why").textContent =
      "Browsers do not run a page's modules from a file on disk.";
  }
  document.querySelector("#load").hidden = true;
});
