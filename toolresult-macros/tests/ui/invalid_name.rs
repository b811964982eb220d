use toolresult::tool;

/// Render a scene.
#[tool(name = "3d.render")]
fn render(scene: String) -> String {
    scene
}

fn main() {}
