import "./csp.ts";
import { createRoot, hydrateRoot } from "react-dom/client";
import { BrowserRouter } from "react-router-dom";
import { App } from "./app.tsx";

const root = document.getElementById("root")!;
const app = <App router={BrowserRouter} />;
// `/` arrives prerendered (landing.html, built by landing/prerender.tsx): React takes over the page
// already on screen instead of drawing it again. Every other address gets the empty index.html.
if (root.firstElementChild) hydrateRoot(root, app);
else createRoot(root).render(app);
