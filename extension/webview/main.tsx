import { render } from "preact";

render(<div>Manifold</div>, document.getElementById("root") ?? document.body);
