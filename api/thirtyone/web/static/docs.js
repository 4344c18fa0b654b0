// Starts Swagger UI on /docs. A file of its own rather than an inline script, so that the page
// works under a Content-Security-Policy of script-src 'self'.
window.addEventListener("DOMContentLoaded", function () {
  var root = document.getElementById("swagger-ui");
  window.ui = SwaggerUIBundle({
    url: root.dataset.url,
    dom_id: "#swagger-ui",
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis],
    layout: "BaseLayout",
    // The schemas are read where each operation uses them; listing all of them again at the
    // bottom of the page (the events alone are 38) made every click re-render them.
    defaultModelsExpandDepth: -1,
  });
});
