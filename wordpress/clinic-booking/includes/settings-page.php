<?php
/**
 * Settings > Clinic booking: the settings form (the Settings API: its nonce, its capability, every value
 * sanitised on save and escaped on output) and the "Check connection" button.
 *
 * @package ClinicBooking
 */

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

const CLINIC_BOOKING_PAGE = 'clinic-booking';

/**
 * The option, its section and its fields.
 */
function clinic_booking_register_settings() {
	register_setting(
		'clinic_booking',
		CLINIC_BOOKING_OPTION,
		array(
			'type'              => 'array',
			'sanitize_callback' => 'clinic_booking_sanitize_settings',
			'default'           => clinic_booking_default_settings(),
			'show_in_rest'      => false,
		)
	);
	add_settings_section( 'clinic_booking_widget', __( 'The widget', 'clinic-booking' ), 'clinic_booking_section_intro', CLINIC_BOOKING_PAGE );
	$fields = array(
		'widget_url'  => __( 'Widget URL', 'clinic-booking' ),
		'sections'    => __( 'Sections', 'clinic-booking' ),
		'mode'        => __( 'Mode', 'clinic-booking' ),
		'lang'        => __( 'Language', 'clinic-booking' ),
		'theme_color' => __( 'Theme colour', 'clinic-booking' ),
		'phone'       => __( 'Phone for the fallback', 'clinic-booking' ),
	);
	foreach ( $fields as $key => $label ) {
		add_settings_field(
			'clinic_booking_' . $key,
			$label,
			'clinic_booking_field_' . $key,
			CLINIC_BOOKING_PAGE,
			'clinic_booking_widget',
			array( 'label_for' => 'clinic_booking_' . $key )
		);
	}
}

/**
 * The page under Settings, for those who may manage options.
 */
function clinic_booking_add_settings_page() {
	add_options_page(
		__( 'Clinic booking', 'clinic-booking' ),
		__( 'Clinic booking', 'clinic-booking' ),
		'manage_options',
		CLINIC_BOOKING_PAGE,
		'clinic_booking_settings_page'
	);
}

/**
 * A "Settings" link beside the plugin's "Deactivate".
 *
 * @param array $links The plugin's action links.
 * @return array
 */
function clinic_booking_action_links( $links ) {
	$url = admin_url( 'options-general.php?page=' . CLINIC_BOOKING_PAGE );
	array_unshift( $links, '<a href="' . esc_url( $url ) . '">' . esc_html__( 'Settings', 'clinic-booking' ) . '</a>' );
	return $links;
}

/**
 * The words above the fields.
 */
function clinic_booking_section_intro() {
	echo '<p>' . esc_html__( 'Add the block "Clinic booking" to a page, or the shortcode [clinic_booking]. These are the defaults; a block or shortcode may choose its own sections, mode and language.', 'clinic-booking' ) . '</p>';
}

/**
 * The name of a field of the option: clinic_booking_settings[key].
 *
 * @param string $key The setting.
 * @return string
 */
function clinic_booking_field_name( $key ) {
	return CLINIC_BOOKING_OPTION . '[' . $key . ']';
}

/**
 * Widget URL.
 */
function clinic_booking_field_widget_url() {
	printf(
		'<input type="url" class="regular-text code" id="clinic_booking_widget_url" name="%1$s" value="%2$s" placeholder="https://book.example.com/">',
		esc_attr( clinic_booking_field_name( 'widget_url' ) ),
		esc_attr( clinic_booking_settings()['widget_url'] )
	);
	echo '<p class="description">' . esc_html__( 'The clinic\'s BFF (https://book.example.com/), or a site of an agency\'s BFF (https://book.example.com/s/{site_id}/). The widget\'s script and its API are found from it.', 'clinic-booking' ) . '</p>';
}

/**
 * Sections, one checkbox each.
 */
function clinic_booking_field_sections() {
	$chosen = explode( ' ', clinic_booking_settings()['sections'] );
	$labels = clinic_booking_section_labels();
	echo '<fieldset id="clinic_booking_sections"><legend class="screen-reader-text">' . esc_html__( 'Sections', 'clinic-booking' ) . '</legend>';
	foreach ( Clinic_Booking_Lists::SECTIONS as $section ) {
		printf(
			'<label><input type="checkbox" name="%1$s[]" value="%2$s"%3$s> %4$s</label><br>',
			esc_attr( clinic_booking_field_name( 'sections' ) ),
			esc_attr( $section ),
			checked( in_array( $section, $chosen, true ), true, false ),
			esc_html( $labels[ $section ] )
		);
	}
	echo '</fieldset><p class="description">' . esc_html__( 'None ticked: all of them (the whole clinic site). On a WordPress page the booking form alone usually fits best.', 'clinic-booking' ) . '</p>';
}

/**
 * The sections' names in words.
 *
 * @return array<string, string>
 */
function clinic_booking_section_labels() {
	return array(
		'site'       => __( 'The clinic\'s site (header, about, hours, contact)', 'clinic-booking' ),
		'treatments' => __( 'Treatments and fees', 'clinic-booking' ),
		'dentists'   => __( 'Dentists', 'clinic-booking' ),
		'booking'    => __( 'Booking form', 'clinic-booking' ),
		'status'     => __( 'Booking status lookup', 'clinic-booking' ),
	);
}

/**
 * Mode.
 */
function clinic_booking_field_mode() {
	$mode    = clinic_booking_settings()['mode'];
	$choices = array(
		''       => __( 'In the page', 'clinic-booking' ),
		'button' => __( 'A floating button that opens the booking form', 'clinic-booking' ),
	);
	printf( '<select id="clinic_booking_mode" name="%s">', esc_attr( clinic_booking_field_name( 'mode' ) ) );
	foreach ( $choices as $value => $label ) {
		printf( '<option value="%1$s"%2$s>%3$s</option>', esc_attr( $value ), selected( $mode, $value, false ), esc_html( $label ) );
	}
	echo '</select>';
}

/**
 * Language.
 */
function clinic_booking_field_lang() {
	$site = clinic_booking_site_lang();
	printf(
		'<input type="text" size="10" id="clinic_booking_lang" name="%1$s" value="%2$s" placeholder="%3$s">',
		esc_attr( clinic_booking_field_name( 'lang' ) ),
		esc_attr( clinic_booking_settings()['lang'] ),
		esc_attr( $site )
	);
	echo '<p class="description">' . esc_html(
		sprintf(
			/* translators: 1: the widget's languages, e.g. "en, de, fr", 2: the site's language as the widget would use it, e.g. en-GB. */
			__( 'One of %1$s, with a region if you like (en-GB: British dates and a 24-hour clock). Empty: the site\'s language, %2$s.', 'clinic-booking' ),
			implode( ', ', Clinic_Booking_Lists::LANGUAGES ),
			'' !== $site ? $site : __( 'which the widget does not speak, so English', 'clinic-booking' )
		)
	) . '</p>';
}

/**
 * Theme colour.
 */
function clinic_booking_field_theme_color() {
	printf(
		'<input type="text" size="10" class="code" id="clinic_booking_theme_color" name="%1$s" value="%2$s" placeholder="#0f766e" pattern="#[0-9a-fA-F]{3}([0-9a-fA-F]{3})?">',
		esc_attr( clinic_booking_field_name( 'theme_color' ) ),
		esc_attr( clinic_booking_settings()['theme_color'] )
	);
	echo '<p class="description">' . esc_html__( 'The buttons\' and links\' colour (--clinic-booking-primary), dark enough for white text on it. Empty: the clinic\'s own colours from the clinic system.', 'clinic-booking' ) . '</p>';
}

/**
 * Phone for the fallback.
 */
function clinic_booking_field_phone() {
	printf(
		'<input type="text" class="regular-text" id="clinic_booking_phone" name="%1$s" value="%2$s" placeholder="+44 20 7946 0958">',
		esc_attr( clinic_booking_field_name( 'phone' ) ),
		esc_attr( clinic_booking_settings()['phone'] )
	);
	echo '<p class="description">' . esc_html__( 'Shown as a "Call to book" link until the widget has loaded, to visitors without JavaScript, and when the booking service cannot be reached.', 'clinic-booking' ) . '</p>';
}

/**
 * The page: the settings form, then the connection check and its last answer.
 */
function clinic_booking_settings_page() {
	if ( ! current_user_can( 'manage_options' ) ) {
		return;
	}
	$check = get_transient( 'clinic_booking_check_' . get_current_user_id() );
	delete_transient( 'clinic_booking_check_' . get_current_user_id() );
	// WordPress prints the form's errors and "Settings saved." itself on a page under Settings (options-head.php).
	echo '<div class="wrap"><h1>' . esc_html( get_admin_page_title() ) . '</h1>';
	if ( is_array( $check ) && isset( $check['message'], $check['ok'] ) ) {
		printf(
			'<div id="clinic-booking-check-result" class="notice notice-%1$s" data-problem="%2$s"><p>%3$s</p></div>',
			$check['ok'] ? 'success' : 'error',
			esc_attr( isset( $check['problem'] ) ? $check['problem'] : '' ),
			esc_html( $check['message'] )
		);
	}
	echo '<form method="post" action="' . esc_url( admin_url( 'options.php' ) ) . '">';
	settings_fields( 'clinic_booking' );
	do_settings_sections( CLINIC_BOOKING_PAGE );
	submit_button();
	echo '</form>';

	echo '<h2>' . esc_html__( 'Connection', 'clinic-booking' ) . '</h2>';
	echo '<p>' . esc_html(
		sprintf(
			/* translators: %s: this site's origin, e.g. https://www.clinic.example. */
			__( 'Asks the BFF, from this server, whether pages of %s may use the widget.', 'clinic-booking' ),
			clinic_booking_site_origin()
		)
	) . '</p>';
	echo '<form method="post" action="' . esc_url( admin_url( 'admin-post.php' ) ) . '">';
	echo '<input type="hidden" name="action" value="clinic_booking_check">';
	wp_nonce_field( 'clinic_booking_check' );
	submit_button( __( 'Check connection', 'clinic-booking' ), 'secondary', 'clinic-booking-check', false );
	echo '</form></div>';
}

/**
 * The "Check connection" form's handler (admin-post.php): checks, keeps the answer for the page, goes back.
 */
function clinic_booking_handle_check() {
	if ( ! current_user_can( 'manage_options' ) ) {
		wp_die( esc_html__( 'Sorry, you are not allowed to manage these settings.', 'clinic-booking' ), '', array( 'response' => 403 ) );
	}
	check_admin_referer( 'clinic_booking_check' );
	$result = clinic_booking_check_connection( clinic_booking_settings()['widget_url'], clinic_booking_site_origin() );
	set_transient( 'clinic_booking_check_' . get_current_user_id(), $result, 5 * MINUTE_IN_SECONDS );
	wp_safe_redirect( admin_url( 'options-general.php?page=' . CLINIC_BOOKING_PAGE ) );
	exit;
}
