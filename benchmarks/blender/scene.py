"""Build the backgammon set in Blender from a job file and render its frames (Cycles, CPU).

    blender -b --factory-startup -noaudio -P benchmarks/blender/scene.py -- --job job.json

Runs inside Blender's own Python (``bpy``, ``bmesh``, ``mathutils``); nothing of the project
is imported. The job is written by ``benchmarks/blender_render.py``, which owns every random
choice and every pose: this script only turns numbers into geometry, materials, a camera and
a lamp. Units in the job are millimetres in the board's world frame (origin at the board's
centre, x along the long side, y across it, z up, the playing field's wood at z = 0);
Blender works in metres.

The model: a walnut box with a raised bevelled frame and bar ridge (real heights), leather
points (noise-bump grain) on a lighter walnut field, copper checkers turned from a profile
(bevelled rim, a groove, a leather inlay a little below the rim), white rounded dice with
dark domed pips, an ivory doubling cube with numeral decals, an optional skin-coloured arm,
a table, one soft area lamp plus a dim room (world) light, a pinhole camera.

Not modelled: defocus, motion blur, the camera's auto exposure and white balance (a dim lamp
is just darker), chromatic aberration, indented pips (they are dark domes), dice cups, a
real hand (the arm ends in a flat mitten), clutter on the table, worn or differing checkers,
leaning stacks. The cube's numerals are ``vision.numerals``' own glyphs, not a real typeface.
Debian's Blender has no OpenImageDenoise: renders use adaptive sampling, clamping and glossy
blur instead of a denoiser.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import sys
import time

import bmesh
import bpy
from mathutils import Matrix, Vector

MM = 0.001


# ----------------------------------------------------------------------------- materials


def _principled(name: str, colour, roughness: float, metallic: float = 0.0, specular: float = 0.5):
    mat = bpy.data.materials.new(name)
    mat.use_nodes = True
    bsdf = mat.node_tree.nodes["Principled BSDF"]
    bsdf.inputs["Base Color"].default_value = (*colour, 1.0)
    bsdf.inputs["Roughness"].default_value = roughness
    bsdf.inputs["Metallic"].default_value = metallic
    bsdf.inputs["Specular"].default_value = specular
    return mat, bsdf


def _noise(nodes, links, scale: float, detail: float, seed: float, coord="Object"):
    tex = nodes.new("ShaderNodeTexCoord")
    shift = nodes.new("ShaderNodeVectorMath")  # the seed moves the pattern (3D noise is cheaper than 4D)
    shift.operation = "ADD"
    shift.inputs[1].default_value = (seed * 0.37, seed * 0.61, seed * 0.17)
    links.new(tex.outputs[coord], shift.inputs[0])
    noise = nodes.new("ShaderNodeTexNoise")
    noise.noise_dimensions = "3D"
    noise.inputs["Scale"].default_value = scale
    noise.inputs["Detail"].default_value = detail
    links.new(shift.outputs["Vector"], noise.inputs["Vector"])
    return noise


def wood_material(name: str, colour, seed: float, along_x: bool = True):
    """Walnut: long grain bands (wave texture distorted by noise) and fine pores, a satin finish."""
    mat, bsdf = _principled(name, colour, 0.42, specular=0.45)
    nodes, links = mat.node_tree.nodes, mat.node_tree.links
    bsdf.inputs["Clearcoat"].default_value = 0.08
    coord = nodes.new("ShaderNodeTexCoord")
    mapping = nodes.new("ShaderNodeMapping")
    # stretch along the grain: the bands run along x (or y)
    mapping.inputs["Scale"].default_value = (2.0, 60.0, 60.0) if along_x else (60.0, 2.0, 60.0)
    mapping.inputs["Location"].default_value = (seed % 1.0, (seed * 7.3) % 1.0, 0.0)
    links.new(coord.outputs["Object"], mapping.inputs["Vector"])
    wave = nodes.new("ShaderNodeTexWave")
    wave.wave_type = "BANDS"
    wave.bands_direction = "Y" if along_x else "X"
    wave.inputs["Scale"].default_value = 0.35
    wave.inputs["Distortion"].default_value = 6.0
    wave.inputs["Detail"].default_value = 3.0
    wave.inputs["Detail Scale"].default_value = 1.5
    links.new(mapping.outputs["Vector"], wave.inputs["Vector"])
    pores = _noise(nodes, links, 900.0, 2.0, seed + 3.0)
    ramp = nodes.new("ShaderNodeValToRGB")
    ramp.color_ramp.elements[0].position = 0.0
    ramp.color_ramp.elements[0].color = (*[c * 0.72 for c in colour], 1.0)
    ramp.color_ramp.elements[1].position = 1.0
    ramp.color_ramp.elements[1].color = (*[min(1.0, c * 1.25) for c in colour], 1.0)
    mix = nodes.new("ShaderNodeMath")
    mix.operation = "MULTIPLY_ADD"
    links.new(wave.outputs["Fac"], mix.inputs[0])
    mix.inputs[1].default_value = 0.8
    links.new(pores.outputs["Fac"], mix.inputs[2])
    mix2 = nodes.new("ShaderNodeMath")
    mix2.operation = "MULTIPLY"
    links.new(mix.outputs[0], mix2.inputs[0])
    mix2.inputs[1].default_value = 0.75
    links.new(mix2.outputs[0], ramp.inputs["Fac"])
    links.new(ramp.outputs["Color"], bsdf.inputs["Base Color"])
    return mat


def leather_material(name: str, colour, seed: float, roughness: float = 0.62):
    """Leather: soft mottling and a pebble grain (noise and voronoi bump)."""
    mat, bsdf = _principled(name, colour, roughness, specular=0.35)
    nodes, links = mat.node_tree.nodes, mat.node_tree.links
    mottle = _noise(nodes, links, 18.0, 3.0, seed)
    ramp = nodes.new("ShaderNodeValToRGB")
    ramp.color_ramp.elements[0].color = (*[c * 0.85 for c in colour], 1.0)
    ramp.color_ramp.elements[1].color = (*[min(1.0, c * 1.15) for c in colour], 1.0)
    ramp.color_ramp.elements[0].position = 0.3
    ramp.color_ramp.elements[1].position = 0.7
    links.new(mottle.outputs["Fac"], ramp.inputs["Fac"])
    links.new(ramp.outputs["Color"], bsdf.inputs["Base Color"])
    grain = _noise(nodes, links, 1500.0, 1.0, seed + 1.0)  # pebble grain
    bump = nodes.new("ShaderNodeBump")
    bump.inputs["Strength"].default_value = 0.35
    bump.inputs["Distance"].default_value = 0.0004
    links.new(grain.outputs["Fac"], bump.inputs["Height"])
    links.new(bump.outputs["Normal"], bsdf.inputs["Normal"])
    return mat


def copper_material(name: str, colour, seed: float, roughness: float):
    """Polished copper: metallic, a little roughness that varies (handling marks)."""
    mat, bsdf = _principled(name, colour, roughness, metallic=1.0)
    nodes, links = mat.node_tree.nodes, mat.node_tree.links
    marks = _noise(nodes, links, 300.0, 4.0, seed)
    rng = nodes.new("ShaderNodeMapRange")
    rng.inputs["To Min"].default_value = roughness * 0.6
    rng.inputs["To Max"].default_value = roughness * 1.5
    links.new(marks.outputs["Fac"], rng.inputs["Value"])
    links.new(rng.outputs["Result"], bsdf.inputs["Roughness"])
    return mat


def decal_material(name: str, colour, ink, image_path: str):
    """A face of the doubling cube: ivory with the numeral's ink from an image mask."""
    mat, bsdf = _principled(name, colour, 0.3)
    nodes, links = mat.node_tree.nodes, mat.node_tree.links
    img = nodes.new("ShaderNodeTexImage")
    img.image = bpy.data.images.load(image_path)
    img.image.colorspace_settings.name = "Non-Color"
    mix = nodes.new("ShaderNodeMixRGB")
    links.new(img.outputs["Color"], mix.inputs["Fac"])
    mix.inputs["Color1"].default_value = (*colour, 1.0)
    mix.inputs["Color2"].default_value = (*ink, 1.0)
    links.new(mix.outputs["Color"], bsdf.inputs["Base Color"])
    return mat


# ----------------------------------------------------------------------------- meshes


def _object(name: str, mesh, mats, collection, smooth: bool = False, auto_smooth: float | None = None):
    obj = bpy.data.objects.new(name, mesh)
    for m in mats:
        mesh.materials.append(m)
    if smooth:
        for p in mesh.polygons:
            p.use_smooth = True
    if auto_smooth is not None:
        mesh.use_auto_smooth = True
        mesh.auto_smooth_angle = math.radians(auto_smooth)
    collection.objects.link(obj)
    return obj


def box_mesh(name: str, x0, x1, y0, y1, z0, z1, bevel: float = 0.0):
    bm = bmesh.new()
    bmesh.ops.create_cube(bm, size=1.0)
    for v in bm.verts:
        v.co = Vector(((x0 + x1) / 2 + v.co.x * (x1 - x0), (y0 + y1) / 2 + v.co.y * (y1 - y0), (z0 + z1) / 2 + v.co.z * (z1 - z0))) * MM
    if bevel > 0:
        top = [e for e in bm.edges if all(v.co.z > ((z0 + z1) / 2) * MM for v in e.verts)]
        bmesh.ops.bevel(bm, geom=top, offset=bevel * MM, segments=3, profile=0.5, affect="EDGES")
    mesh = bpy.data.meshes.new(name)
    bm.to_mesh(mesh)
    bm.free()
    return mesh


def lathe_mesh(name: str, profile, segments: int = 64, cap_top: bool = True):
    """Surface of revolution of ``profile`` [(r, z), ...] mm about the z axis (r = 0 ends are closed)."""
    verts, faces = [], []
    rings = []
    for r, z in profile:
        if r <= 1e-6:
            rings.append([len(verts)])
            verts.append((0.0, 0.0, z * MM))
            continue
        ring = []
        for k in range(segments):
            a = 2 * math.pi * k / segments
            ring.append(len(verts))
            verts.append((r * math.cos(a) * MM, r * math.sin(a) * MM, z * MM))
        rings.append(ring)
    for a, b in itertools.pairwise(rings):
        if len(a) == 1 and len(b) == 1:
            continue
        for k in range(segments):
            k1 = (k + 1) % segments
            if len(a) == 1:
                faces.append((a[0], b[k1], b[k]))
            elif len(b) == 1:
                faces.append((a[k], a[k1], b[0]))
            else:
                faces.append((a[k], a[k1], b[k1], b[k]))
    mesh = bpy.data.meshes.new(name)
    mesh.from_pydata(verts, [], faces)
    mesh.validate()
    return mesh


def _arc(cx, cz, r, a0, a1, n):
    return [(cx + r * math.cos(math.radians(a0 + (a1 - a0) * i / n)), cz + r * math.sin(math.radians(a0 + (a1 - a0) * i / n))) for i in range(n + 1)]


def checker_meshes(radius: float, thickness: float, inlay_share: float):
    """Copper body (rounded bottom and top edges, a rim, a groove round the recessed inlay) and the inlay disc."""
    R, T = radius, thickness
    ri = R * inlay_share
    prof = [(0.0, 0.0)]
    prof += _arc(R - 1.0, 1.0, 1.0, 270, 360, 4)  # bottom edge
    prof += _arc(R - 1.4, T - 1.4, 1.4, 0, 90, 5)  # top outer edge, the highlight
    prof += _arc(ri + 1.2, T - 0.6, 0.6, 90, 180, 3)  # rim's inner roll into the groove
    prof += [(ri + 0.5, T - 1.1), (ri, T - 1.1), (0.0, T - 1.1)]
    body = lathe_mesh("checker_copper", prof, 64)
    inlay = lathe_mesh("checker_inlay", [(0.0, T - 0.45), (ri - 0.1, T - 0.45), (ri - 0.1, T - 1.2), (0.0, T - 1.2)], 64)
    return body, inlay


# die faces: value -> outward normal in the die's own frame (opposite faces sum to 7)
FACES = {1: (0, 0, 1), 6: (0, 0, -1), 2: (0, 1, 0), 5: (0, -1, 0), 3: (1, 0, 0), 4: (-1, 0, 0)}


def _face_frame(n):
    n = Vector(n)
    u = Vector((0, 0, 1)) if abs(n.z) < 0.5 else Vector((1, 0, 0))
    u = (u - n * u.dot(n)).normalized()
    v = n.cross(u)
    return n, u, v


def die_mesh(name: str, edge: float, pips):
    """A white cube with rounded edges and dark domed pips (material 1) on its six faces."""
    bm = bmesh.new()
    bmesh.ops.create_cube(bm, size=edge * MM)
    bmesh.ops.bevel(bm, geom=list(bm.edges), offset=edge * 0.12 * MM, segments=3, profile=0.5, affect="EDGES")
    pr = edge * 0.1
    for value, normal in FACES.items():
        n, u, v = _face_frame(normal)
        for a, b in pips[str(value)]:
            centre = n * (edge / 2 - 0.35 * pr) + u * (a * 0.27 * edge) + v * (b * 0.27 * edge)
            rot = Matrix((u, v, n)).transposed().to_4x4()
            mat = Matrix.Translation(centre * MM) @ rot @ Matrix.Diagonal((pr * MM, pr * MM, 0.5 * pr * MM, 1.0))
            res = bmesh.ops.create_uvsphere(bm, u_segments=12, v_segments=6, radius=1.0, matrix=mat)
            for f in {f for vert in res["verts"] for f in vert.link_faces}:
                f.material_index = 1
    mesh = bpy.data.meshes.new(name)
    bm.to_mesh(mesh)
    bm.free()
    return mesh


def rounded_cube_mesh(name: str, edge: float, bevel: float):
    bm = bmesh.new()
    bmesh.ops.create_cube(bm, size=edge * MM)
    bmesh.ops.bevel(bm, geom=list(bm.edges), offset=bevel * MM, segments=3, profile=0.5, affect="EDGES")
    mesh = bpy.data.meshes.new(name)
    bm.to_mesh(mesh)
    bm.free()
    return mesh


def quad_mesh(name: str, size: float):
    s = size / 2 * MM
    mesh = bpy.data.meshes.new(name)
    mesh.from_pydata([(-s, -s, 0), (s, -s, 0), (s, s, 0), (-s, s, 0)], [], [(0, 1, 2, 3)])
    uv = mesh.uv_layers.new()
    for loop, co in zip(uv.data, ((0, 0), (1, 0), (1, 1), (0, 1))):
        loop.uv = co
    return mesh


def capsule_mesh(name: str, a, b, radius: float, hand: float):
    """An arm: a cylinder from ``a`` to ``b`` (mm) with a ball (the hand) at ``b``."""
    bm = bmesh.new()
    va, vb = Vector(a), Vector(b)
    d = vb - va
    rot = d.to_track_quat("Z", "Y").to_matrix().to_4x4()
    mat = Matrix.Translation((va + vb) / 2 * MM) @ rot
    bmesh.ops.create_cone(bm, cap_ends=True, segments=32, radius1=radius * MM, radius2=radius * 0.7 * MM, depth=d.length * MM, matrix=mat)
    bmesh.ops.create_uvsphere(bm, u_segments=24, v_segments=12, radius=radius * MM, matrix=Matrix.Translation(va * MM))
    # the hand: a flat, broad ellipsoid (palm and fingers) beyond the wrist, along the arm
    palm = Matrix.Translation((vb + d.normalized() * hand * 0.8) * MM) @ rot @ Matrix.Diagonal((hand * MM, hand * 0.4 * MM, hand * 1.6 * MM, 1.0))
    bmesh.ops.create_uvsphere(bm, u_segments=24, v_segments=12, radius=1.0, matrix=palm)
    mesh = bpy.data.meshes.new(name)
    bm.to_mesh(mesh)
    bm.free()
    return mesh


# ----------------------------------------------------------------------------- the set


class SetBuilder:
    def __init__(self, job):
        self.job = job
        self.board = job["board"]
        self.static = bpy.data.collections.new("static")
        self.dynamic = bpy.data.collections.new("dynamic")
        bpy.context.scene.collection.children.link(self.static)
        bpy.context.scene.collection.children.link(self.dynamic)
        b = self.board
        seed = float(b["seed"])
        col = b["colours"]
        self.m_wood = wood_material("walnut", col["walnut"], seed)
        self.m_wood_y = wood_material("walnut_y", col["walnut"], seed + 0.37, along_x=False)
        self.m_field = wood_material("field", col["field"], seed + 0.71)
        self.m_olive = leather_material("olive", col["olive"], seed + 1.1)
        self.m_orange = leather_material("orange", col["orange"], seed + 1.9)
        self.m_inlay_dark = leather_material("inlay_dark", col["inlay_dark"], seed + 2.3, 0.55)
        self.m_inlay_light = leather_material("inlay_light", col["inlay_light"], seed + 2.9, 0.55)
        self.m_copper = copper_material("copper", col["copper"], seed + 3.7, b["copper_roughness"])
        self.m_die, _ = _principled("die", col["die"], 0.28, specular=0.5)
        self.m_pip, _ = _principled("pip", col["pip"], 0.35)
        self.m_cube, _ = _principled("cube", col["cube"], 0.3)
        self.m_skin = leather_material("skin", col["skin"], seed + 4.4, 0.5)
        self.m_table = leather_material("table", col["table"], seed + 5.5, 0.7)
        self.checker_body, inlay = checker_meshes(b["checker_radius"], b["checker_thickness"], b["inlay_share"])
        self.inlay_dark, self.inlay_light = inlay, inlay.copy()
        for mesh, mat, angle in ((self.checker_body, self.m_copper, 50), (self.inlay_dark, self.m_inlay_dark, 30),
                                 (self.inlay_light, self.m_inlay_light, 30)):
            mesh.materials.append(mat)
            mesh.polygons.foreach_set("use_smooth", [True] * len(mesh.polygons))
            mesh.use_auto_smooth = True
            mesh.auto_smooth_angle = math.radians(angle)
        self.die = die_mesh("die", b["die_edge"], b["pips"])
        self.cube = rounded_cube_mesh("cube", b["cube_edge"], b["cube_edge"] * 0.1)
        for mesh, mats in ((self.die, (self.m_die, self.m_pip)), (self.cube, (self.m_cube,))):
            for mat in mats:
                mesh.materials.append(mat)
            mesh.polygons.foreach_set("use_smooth", [True] * len(mesh.polygons))
            mesh.use_auto_smooth = True
            mesh.auto_smooth_angle = math.radians(40)
        self.decal = quad_mesh("decal", b["cube_edge"] * 0.8)
        self.decal_mats = {int(v): decal_material(f"decal{v}", col["cube"], col["ink"], path) for v, path in b["numerals"].items()}

    def build_board(self):
        b = self.board
        W, D = b["width"], b["depth"]
        f, hf, hb, base = b["frame"], b["frame_height"], b["bar_height"], b["base"]
        x0, x1 = -W / 2, W / 2
        y0, y1 = -D / 2, D / 2
        bw = b["bar_width"] / 2
        bev = b["bevel"]
        add = lambda name, mesh, mat: _object(name, mesh, [mat], self.static, smooth=True, auto_smooth=40)
        add("base", box_mesh("base", x0 + 0.5, x1 - 0.5, y0 + 0.5, y1 - 0.5, -base, 0.0), self.m_field)
        add("frame_top", box_mesh("ft", x0, x1, y1 - f, y1, -base, hf, bev), self.m_wood)
        add("frame_bottom", box_mesh("fb", x0, x1, y0, y0 + f, -base, hf, bev), self.m_wood)
        add("frame_left", box_mesh("fl", x0, x0 + f, y0 + f - 0.01, y1 - f + 0.01, -base, hf, bev), self.m_wood_y)
        add("frame_right", box_mesh("fr", x1 - f, x1, y0 + f - 0.01, y1 - f + 0.01, -base, hf, bev), self.m_wood_y)
        add("bar", box_mesh("bar", -bw, bw, y0 + f - 0.01, y1 - f + 0.01, 0.0 - 0.01, hb, bev), self.m_wood_y)
        # leather points: thin triangular plates on the field
        for tri in b["points"]:
            (ax, ay), (bx, by), (cx, cy) = tri["corners"]
            t = b["leather"]
            verts = [(ax * MM, ay * MM, 0.0), (bx * MM, by * MM, 0.0), (cx * MM, cy * MM, 0.0)]
            verts += [(x, y, t * MM) for x, y, _ in verts]
            faces = [(0, 2, 1), (3, 4, 5), (0, 1, 4, 3), (1, 2, 5, 4), (2, 0, 3, 5)]
            mesh = bpy.data.meshes.new("point")
            mesh.from_pydata(verts, [], faces)
            mesh.validate()
            _object("point", mesh, [self.m_olive if tri["olive"] else self.m_orange], self.static)
        # the table under the board
        table = bpy.data.meshes.new("table")
        s = 3.0
        table.from_pydata([(-s, -s, 0), (s, -s, 0), (s, s, 0), (-s, s, 0)], [], [(0, 1, 2, 3)])
        obj = _object("table", table, [self.m_table], self.static)
        obj.location.z = -base * MM

    def clear_dynamic(self):
        for obj in list(self.dynamic.objects):
            bpy.data.objects.remove(obj, do_unlink=True)

    def build_frame(self, frame):
        self.clear_dynamic()
        for c in frame["checkers"]:
            loc = Vector(c["xyz"]) * MM
            for mesh in (self.checker_body, self.inlay_dark if c["dark"] else self.inlay_light):
                obj = bpy.data.objects.new("checker", mesh)
                obj.location = loc
                obj.rotation_euler.z = c["spin"]
                self.dynamic.objects.link(obj)
        for d in frame["dice"]:
            obj = bpy.data.objects.new("die", self.die)
            obj.matrix_world = _matrix(d["matrix"])
            self.dynamic.objects.link(obj)
        cube = frame.get("cube")
        if cube:
            obj = bpy.data.objects.new("cube", self.cube)
            obj.matrix_world = _matrix(cube["matrix"])
            self.dynamic.objects.link(obj)
            e = self.board["cube_edge"]
            for value, normal in cube["faces"].items():
                n, u, v = _face_frame(normal)
                dec = bpy.data.objects.new(f"decal{value}", self.decal.copy())
                dec.data.materials.append(self.decal_mats[int(value)])
                rot = Matrix((u, v, n)).transposed().to_4x4()
                dec.matrix_world = _matrix(cube["matrix"]) @ Matrix.Translation(n * (e / 2 + 0.05) * MM) @ rot
                self.dynamic.objects.link(dec)
        arm = frame.get("arm")
        if arm:
            mesh = capsule_mesh("arm", arm["a"], arm["b"], arm["radius"], arm["hand"])
            _object("arm", mesh, [self.m_skin], self.dynamic, smooth=True)


def _matrix(rows):
    m = Matrix(rows)
    m.translation = m.translation * MM
    return m


# ----------------------------------------------------------------------------- camera, light, render


def setup_render(job):
    scene = bpy.context.scene
    r = job["render"]
    scene.render.engine = "CYCLES"
    scene.cycles.device = "CPU"
    scene.cycles.samples = int(r["samples"])
    scene.cycles.use_adaptive_sampling = True
    scene.cycles.adaptive_threshold = float(r.get("adaptive_threshold", 0.04))
    scene.cycles.max_bounces = 3
    scene.cycles.diffuse_bounces = 1
    scene.cycles.glossy_bounces = 2
    scene.cycles.transmission_bounces = 0
    scene.cycles.transparent_max_bounces = 2
    scene.cycles.caustics_reflective = False
    scene.cycles.caustics_refractive = False
    scene.cycles.sample_clamp_indirect = 4.0
    scene.cycles.blur_glossy = 1.0
    scene.cycles.use_denoising = False
    scene.cycles.seed = int(r.get("seed", 0))
    scene.render.threads_mode = "FIXED"
    scene.render.threads = int(r.get("threads", 2))
    scene.render.use_persistent_data = True
    scene.render.resolution_x, scene.render.resolution_y = job["camera"]["size"]
    scene.render.resolution_percentage = 100
    scene.render.film_transparent = False
    scene.render.image_settings.file_format = "PNG"
    scene.render.image_settings.color_mode = "RGB"
    scene.render.image_settings.color_depth = "8"
    scene.view_settings.view_transform = r.get("view_transform", "Filmic")
    scene.view_settings.look = r.get("look", "Medium High Contrast")
    scene.view_settings.exposure = float(r.get("exposure", 0.0))


def setup_camera(job):
    cam = job["camera"]
    data = bpy.data.cameras.new("camera")
    data.sensor_fit = "HORIZONTAL"
    data.sensor_width = 36.0
    data.lens = cam["focal_px"] * 36.0 / cam["size"][0]
    data.shift_x = cam.get("shift_x", 0.0)
    data.shift_y = cam.get("shift_y", 0.0)
    data.clip_start = 0.01
    data.clip_end = 20.0
    obj = bpy.data.objects.new("camera", data)
    obj.matrix_world = _matrix(cam["matrix"])
    bpy.context.scene.collection.objects.link(obj)
    bpy.context.scene.camera = obj


def setup_world(colour, strength):
    world = bpy.data.worlds.new("room")
    world.use_nodes = True
    bg = world.node_tree.nodes["Background"]
    bg.inputs["Color"].default_value = (*colour, 1.0)
    bg.inputs["Strength"].default_value = strength
    bpy.context.scene.world = world


def set_lamp(lamp, state):
    lamp.location = Vector(state["xyz"]) * MM
    target = Vector(state.get("target", (0.0, 0.0, 0.0))) * MM
    lamp.rotation_euler = (target - lamp.location).to_track_quat("-Z", "Y").to_euler()
    lamp.data.energy = state["power"]
    lamp.data.color = state["colour"]
    lamp.data.size = state["size"] * MM
    bpy.context.scene.world.node_tree.nodes["Background"].inputs["Strength"].default_value = state["ambient"]
    bpy.context.scene.world.node_tree.nodes["Background"].inputs["Color"].default_value = (*state["ambient_colour"], 1.0)


def main(argv):
    ap = argparse.ArgumentParser()
    ap.add_argument("--job", required=True)
    args = ap.parse_args(argv)
    with open(args.job) as fh:
        job = json.load(fh)
    # an empty scene (factory startup has a cube, a light and a camera)
    for obj in list(bpy.data.objects):
        bpy.data.objects.remove(obj, do_unlink=True)
    setup_render(job)
    setup_world((0.5, 0.5, 0.5), 0.2)
    setup_camera(job)
    light = bpy.data.lights.new("lamp", "AREA")
    light.shape = "DISK"
    lamp = bpy.data.objects.new("lamp", light)
    bpy.context.scene.collection.objects.link(lamp)
    builder = SetBuilder(job)
    builder.build_board()
    times = []
    for frame in job["frames"]:
        t0 = time.time()
        builder.build_frame(frame)
        set_lamp(lamp, frame["lamp"])
        bpy.context.scene.cycles.seed = int(frame.get("seed", 0)) % (2**31)
        bpy.context.scene.render.filepath = frame["out"]
        bpy.ops.render.render(write_still=True)
        times.append(time.time() - t0)
        print(f"BGREF rendered {frame['out']} in {times[-1]:.1f} s", flush=True)
    print(f"BGREF done {len(times)} frames, {sum(times) / max(len(times), 1):.1f} s per frame", flush=True)


if __name__ == "__main__":
    main(sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else [])
